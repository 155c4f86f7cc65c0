// Issue 44 / 42: what the document lists besides operations — a mounted fetch handler (prefix
// route) as opaque operations when asked (`prefixRoutes: 'opaque'`, default skip), and the health
// probes when the app asks (`health: { document: true }`, default unlisted). The document with both
// still passes the validators the demo's document passes.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, mountFetch, Struct, type AppOptions } from '@api/core';
import { TestClient } from '@api/testing';
import { openapi, type OpenAPIOptions } from '../src/index';
import {
  fetchDocument,
  redoclyLint,
  validateWithHyperjump,
  validateWithSeriousme,
  type Document,
} from './conformance';

const Note = Struct('Note', { text: v.string() });
class Notes extends Endpoint('/notes') {
  get = this.operation({ returns: Note, meta: { summary: 'A note' } }, () => ({ text: 'hi' }));
}

class App extends BaseApp {
  constructor(
    options: AppOptions,
    private readonly docs: Partial<OpenAPIOptions> = {},
  ) {
    super(options);
  }
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Notes());
    this.include(mountFetch('/api/auth', () => new Response('auth'), { name: 'better-auth' }));
    this.include(
      mountFetch('/mcp-sdk', () => new Response('mcp'), {
        name: 'mcp-sdk',
        methods: ['GET', 'POST', 'DELETE'],
      }),
    );
    this.include(openapi({ title: 'T', version: '1', ...this.docs }));
  }
}

async function documentOf(options: AppOptions, docs: Partial<OpenAPIOptions> = {}): Promise<Document> {
  const client = await TestClient.start(new App({ env: {}, ...options }, docs));
  try {
    return await fetchDocument(client.url);
  } finally {
    await client.close();
  }
}

type Paths = Record<string, Record<string, Record<string, unknown>>>;

describe('prefix routes and health probes in the document', () => {
  it('leaves both out by default', async () => {
    const doc = await documentOf({ health: true });
    expect(Object.keys(doc.paths as Paths)).toEqual(['/notes']);
  });

  it("lists a mounted handler as one opaque operation per method with prefixRoutes: 'opaque'", async () => {
    const doc = await documentOf({}, { prefixRoutes: 'opaque' });
    const paths = doc.paths as Paths;
    expect(Object.keys(paths)).toEqual(['/notes', '/api/auth/{path}', '/mcp-sdk/{path}']);
    expect(Object.keys(paths['/api/auth/{path}']!)).toEqual(['get', 'post', 'put', 'patch', 'delete']);
    expect(Object.keys(paths['/mcp-sdk/{path}']!)).toEqual(['get', 'post', 'delete']);
    expect(paths['/mcp-sdk/{path}']!.post).toEqual({
      operationId: 'mcp_sdk_post',
      tags: ['mcp-sdk'],
      summary: 'POST any path under /mcp-sdk (mcp-sdk)',
      description:
        'Every path under `/mcp-sdk` is answered by a mounted handler (`mcp-sdk`); its operations, bodies and answers are its own and are not described here.',
      parameters: [
        {
          name: 'path',
          in: 'path',
          required: true,
          style: 'simple',
          description:
            'The rest of the path after `/mcp-sdk/`. It may contain `/`: send it unencoded (as `allowReserved` would), not as one percent-encoded segment.',
          schema: { type: 'string' },
        },
      ],
      requestBody: { description: 'Whatever the mounted handler reads.', content: { '*/*': {} } },
      responses: { default: { description: "The mounted handler's answer.", content: { '*/*': {} } } },
      security: [],
    });
    expect(paths['/mcp-sdk/{path}']!.get!.requestBody).toBeUndefined();
    const ids = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.tags).toEqual([{ name: 'better-auth' }, { name: 'mcp-sdk' }]);
  });

  it('lists /livez and /readyz with health: { document: true }', async () => {
    const doc = await documentOf({ health: { document: true } });
    const paths = doc.paths as Paths;
    expect(Object.keys(paths)).toEqual(['/notes', '/livez', '/readyz']);
    const ready = paths['/readyz']!.get!;
    expect([ready.operationId, ready.tags, ready.summary]).toEqual([
      'health_readiness',
      ['health'],
      'Readiness probe',
    ]);
    const responses = ready.responses as Record<string, { description: string; content?: unknown }>;
    // 500: every operation can fail unexpectedly (the document lists it everywhere).
    expect(Object.keys(responses)).toEqual(['200', '500', '503']);
    expect(responses['503']!.description).toBe(
      'Not ready: `{"status":"starting"}` or `{"status":"draining"}`',
    );
    expect(responses['503']!.content).toEqual({
      'application/json': {
        schema: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
      },
    });
    expect(Object.keys(paths['/livez']!.get!.responses as object)).toEqual(['200', '500']);
  });

  it('with both listed, passes both schema validators and redocly lint', async () => {
    const doc = await documentOf({ health: { document: true } }, { prefixRoutes: 'opaque' });
    for (const report of [await validateWithSeriousme(doc), await validateWithHyperjump(doc)])
      expect(report.errors, report.validator).toEqual([]);
    const lint = await redoclyLint(doc);
    expect(lint.errors).toEqual([]);
    expect(lint.exitCode).toBe(0);
  }, 60_000);

  it("refuses a prefixRoutes that is neither 'skip' nor 'opaque', and a health.document that is not a boolean", async () => {
    await expect(
      TestClient.start(new App({ env: {} }, { prefixRoutes: 'list' as never })),
    ).rejects.toMatchObject({
      code: 'API_WIRING_INVALID_ARGUMENT',
      message: expect.stringContaining(`openapi(): prefixRoutes "list" is neither 'skip' nor 'opaque'.`),
    });
    expect(() => new App({ health: { document: 'yes' as never } })).toThrow(
      'new App(options): health.document must be true or false, got a string.',
    );
  });
});
