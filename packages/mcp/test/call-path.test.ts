// A tool call's own request, over a real socket: what the MCP request hands it (request id, trace
// context, the request log's line), and the MCP client leaving mid-call reaching the operation.
import { connect } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, serve, Struct, type RunningServer } from '@api/core';
import { mcp } from '../src/index';

const Echo = Struct('Echo', { requestId: v.string(), traceparent: v.string() });
const EchoHeaders = Struct('EchoHeaders', { traceparent: v.optional(v.string(), '') });
const Done = Struct('Done', { done: v.boolean() });

let started!: () => void;
let aborted!: (reason: unknown) => void;
let waitStarted: Promise<void>;
let waitAborted: Promise<unknown>;
function reset(): void {
  waitStarted = new Promise((resolve) => (started = resolve));
  waitAborted = new Promise((resolve) => (aborted = resolve));
}
reset();

class EchoEndpoint extends Endpoint('/echo') {
  get = this.operation(
    { headers: EchoHeaders, requestId: true, returns: Echo },
    ({ headers, requestId }) => ({
      requestId,
      traceparent: headers.traceparent,
    }),
  );
}
class WaitEndpoint extends Endpoint('/wait') {
  get = this.operation({ signal: true, returns: Done }, ({ signal }) => {
    started();
    return new Promise<{ done: boolean }>((resolve) => {
      const timer = setTimeout(() => resolve({ done: true }), 5_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted(signal.reason);
        resolve({ done: false });
      });
    });
  });
}

const logged: { message: string; fields: Record<string, unknown> | undefined }[] = [];
class CallApp extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new EchoEndpoint());
    this.includeEndpoint(new WaitEndpoint());
    this.include(mcp({ tools: [EchoEndpoint, WaitEndpoint] }));
  }
}

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  reset();
  logged.length = 0;
  await Promise.all(opened.splice(0).map((close) => close()));
});

async function start(): Promise<{ server: RunningServer; session: string }> {
  const logger = {
    info: (message: string, fields?: Record<string, unknown>) => void logged.push({ message, fields }),
    warn() {},
    error() {},
  };
  const server = await serve(new CallApp({ logger, requestLog: true }), {
    port: 0,
    quiet: true,
    signals: false,
  });
  opened.push(() => server.close());
  const init = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await init.text();
  expect(init.status).toBe(200);
  return { server, session: init.headers.get('mcp-session-id')! };
}

const call = (name: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {} } });

describe('a tool call', () => {
  it("carries the MCP request's id and trace context; the request log has the operation's line", async () => {
    const { server, session } = await start();
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session,
        'x-request-id': 'outer-1',
        traceparent,
      },
      body: call('EchoEndpoint_get'),
    });
    expect(response.status).toBe(200);
    const text = JSON.stringify({ requestId: 'outer-1', traceparent });
    expect(await response.text()).toBe(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        result: { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as object },
      }),
    );
    await expect
      .poll(() =>
        logged.map((l) => [l.fields?.method, l.fields?.path, l.fields?.status, l.fields?.requestId]),
      )
      .toEqual([
        ['POST', '/mcp', 200, expect.any(String)],
        ['GET', '/echo', 200, 'outer-1'],
        ['POST', '/mcp', 200, 'outer-1'],
      ]);
  });

  it("the MCP client leaving mid-call aborts the operation's signal", async () => {
    const { server, session } = await start();
    const body = call('WaitEndpoint_get');
    const socket = connect(server.port, '127.0.0.1');
    opened.push(async () => void socket.destroy());
    socket.on('error', () => undefined);
    socket.write(
      `POST /mcp HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n` +
        `accept: application/json, text/event-stream\r\nmcp-session-id: ${session}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await waitStarted;
    socket.destroy();
    // Aborted by the client leaving, not ended by the operation's 5 s timer.
    expect(await waitAborted).toBeInstanceOf(Error);
  });
});
