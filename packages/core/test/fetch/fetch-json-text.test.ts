import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Created, Resource } from '../../src/index';
import { memoryLogger, Widget, WidgetIn } from '../fixtures';

// The fetch transport reads a JSON body of declared length with one Request.text()
// (`RequestBody.wholeText`), not as bytes: one native read, and one difference from node:http.
class WidgetResource extends Resource('/widgets') {
  #count = 0;
  create = this.operation({ json: WidgetIn, returns: Created.of(Widget) }, ({ json }) => {
    const widget: v.InferOutput<typeof Widget> = { id: String(++this.#count), ...json };
    return new Created({ json: widget });
  });
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeResource(new WidgetResource());
  }
}

describe('app.fetch: a JSON body', () => {
  it('reads a JSON body of declared length as text in one read (Request.text), and answers a body cut short 400', async () => {
    const app = new App({ logger: memoryLogger() });
    const body = '{"name":"bolt","priceCents":7}';
    const request = new Request('http://api.test/widgets', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    });
    const reads: string[] = [];
    for (const name of ['text', 'arrayBuffer', 'json', 'bytes']) {
      const own = (request as unknown as Record<string, () => Promise<unknown>>)[name]!.bind(request);
      Object.defineProperty(request, name, { value: () => (reads.push(name), own()) });
    }
    const ok = await app.fetch(request);
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ id: '1', name: 'bolt', priceCents: 7 });
    expect(reads).toEqual(['text']);

    // The client leaves mid-body: the 400 a counted read gives, nothing bound.
    const cut = await app.fetch(
      new Request('http://api.test/widgets', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '64' },
        body: new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.error(new Error('the client left'));
          },
        }),
        duplex: 'half',
      } as RequestInit),
    );
    expect(cut.status).toBe(400);
    expect(await cut.json()).toEqual({
      type: 'malformed-request',
      title: 'Malformed request',
      status: 400,
      detail: 'The connection closed before the request body was read',
      params: {
        reason: 'The connection closed before the request body was read',
        issues: [{ path: '$', message: 'The connection closed before the request body was read' }],
      },
    });

    // A leading byte order mark is dropped by Request.text() (RFC 8259 §8.1 lets a parser ignore
    // it): accepted here, where node:http's serve() answers 400 (RequestBody.wholeText documents it).
    const bom = '\ufeff{"name":"nut","priceCents":2}';
    const withBom = await app.fetch(
      new Request('http://api.test/widgets', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(bom)) },
        body: bom,
      }),
    );
    expect(withBom.status).toBe(201);
    expect(await withBom.json()).toEqual({ id: '2', name: 'nut', priceCents: 2 });
    await app.close();
  });
});
