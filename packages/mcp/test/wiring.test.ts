// Wiring: which operations become tools, their names, and every mistake a coded WiringError.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct, WiringError, type WiringErrorCode } from '@api/core';
import { mcp, type McpOptions } from '../src/index';
import { TestApp, tokenAuth, WidgetResource } from './fixtures/app';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((close) => close()));
});

/** Starts a TestApp with these options; resolves with its tool names. */
async function toolNames(options: McpOptions): Promise<string[]> {
  const app = new TestApp(options);
  opened.push(() => app.close());
  await app.start();
  return app.endpoint!.tools.map((t) => t.name as string);
}

/** What starting `app` fails with, checked to be a WiringError of `code`. */
async function wiringFailure(app: BaseApp, code: WiringErrorCode): Promise<WiringError> {
  opened.push(() => app.close());
  const error: unknown = await app.start().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WiringError);
  expect((error as WiringError).code).toBe(code);
  return error as WiringError;
}

const Item = Struct('Item', { id: v.string(), label: v.string() });
const ItemPath = Struct('ItemPath', { id: v.string() });
class Clashing extends Endpoint('/items/{id}') {
  put = this.operation({ path: ItemPath, json: Item, returns: Item }, ({ json }) => json);
}
class ClashApp extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Clashing());
    this.include(mcp());
  }
}

describe('choosing and naming tools', () => {
  it('takes classes and operations, leaves out exclude and mcp: false mounts, renames by names', async () => {
    expect(
      await toolNames({ auth: tokenAuth, tools: [WidgetResource], exclude: ['WidgetResource.delete'] }),
    ).toEqual([
      'WidgetResource_create',
      'WidgetResource_readMany',
      'WidgetResource_readOne',
      'WidgetResource_updateFull',
    ]);
    expect(
      await toolNames({
        auth: tokenAuth,
        tools: ['WidgetResource.readOne', 'WidgetResource.create'],
        names: { 'WidgetResource.create': 'create_widget' },
      }),
    ).toEqual(['create_widget', 'WidgetResource_readOne']);
  });

  it('names the two fields of a collision', async () => {
    const error = await wiringFailure(new ClashApp(), 'API_WIRING_MCP_FIELD_COLLISION');
    expect(error.where).toBe('mcp(options): Clashing_put (Clashing.put)');
    expect(error.message).toContain('path slot "id" and body field "id" are both named "id"');
  });

  it('refuses selectors that name nothing, or one operation that cannot be a tool', async () => {
    const nothing = await wiringFailure(new TestApp({ tools: ['Nope'] }), 'API_WIRING_MCP_SELECTOR');
    expect(nothing.message).toContain('tools has "Nope", which names no operation');
    // A mount with mcp: false is not there to choose.
    await wiringFailure(new TestApp({ tools: ['HealthEndpoint'] }), 'API_WIRING_MCP_SELECTOR');
    const form = await wiringFailure(
      new TestApp({ tools: ['UploadEndpoint.post'] }),
      'API_WIRING_MCP_SELECTOR',
    );
    expect(form.message).toContain('it reads a multipart form');
    const name = await wiringFailure(
      new TestApp({ names: { 'WidgetResource.nope': 'x' } }),
      'API_WIRING_MCP_SELECTOR',
    );
    expect(name.message).toContain('names has "WidgetResource.nope"');
  });

  it('refuses a tool name MCP does not allow, and one name twice', async () => {
    const bad = await wiringFailure(
      new TestApp({ names: { 'WidgetResource.create': 'create widget!' } }),
      'API_WIRING_MCP_TOOL_NAME',
    );
    expect(bad.fix).toContain("'WidgetResource.create': 'create_widget_'");
    const twice = await wiringFailure(
      new TestApp({ names: { 'WidgetResource.create': 'w', 'WidgetResource.readOne': 'w' } }),
      'API_WIRING_DUPLICATE',
    );
    expect(twice.message).toContain('tool name "w" is already WidgetResource.create\'s');
  });
});

describe('options', () => {
  it('are checked at the call, with coded errors', () => {
    const call = (options: unknown) => () => mcp(options as McpOptions);
    expect(call({ allowedOrigins: ['https://app.example/'] })).toThrow(
      expect.objectContaining({ code: 'API_WIRING_MCP_ORIGIN', where: 'mcp(options)' }),
    );
    expect(call({ maxSessions: 0 })).toThrow(
      expect.objectContaining({ code: 'API_WIRING_INVALID_ARGUMENT', where: 'mcp(options)' }),
    );
    expect(call({ path: 'mcp' })).toThrow(expect.objectContaining({ code: 'API_WIRING_INVALID_ARGUMENT' }));
    expect(call({ tools: [42] })).toThrow(expect.objectContaining({ code: 'API_WIRING_INVALID_ARGUMENT' }));
    expect(call(null)).toThrow(expect.objectContaining({ code: 'API_WIRING_INVALID_ARGUMENT' }));
  });
});
