import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  BaseApp,
  Created,
  Endpoint,
  FileFormPart,
  JSONResponse,
  Location,
  NotFoundError,
  Resource,
  SetCookie,
  Struct,
  WiringError,
  serve,
} from '../../src/index';
import { expectWiringError } from '../expect-wiring-error';
import { defineExtension, type Transport } from '../../src/extension';
import { Csv, CsvRows } from '../guide/meta-plugin';
import { memoryLogger, Widget, WidgetIn, WidgetPath } from '../fixtures';

class WidgetResource extends Resource('/widgets') {
  readonly #widgets = new Map<string, v.InferOutput<typeof Widget>>();

  create = this.operation({ json: WidgetIn, returns: Created.of(Widget) }, ({ json }) => {
    const widget = { id: String(this.#widgets.size + 1), ...json };
    this.#widgets.set(widget.id, widget);
    const location = Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: widget.id } });
    return new Created({ json: widget, location });
  });

  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => {
    const widget = this.#widgets.get(path.widget_id);
    if (widget === undefined) throw new NotFoundError();
    return widget;
  });
}

const Session = Struct('Session', { ok: v.boolean() });
class Login extends Endpoint('/login') {
  post = this.operation({ returns: JSONResponse.of(Session) }, () => {
    return new JSONResponse({
      json: { ok: true },
      cookies: [new SetCookie('session', 'abc'), new SetCookie('theme', 'dark', { httpOnly: false })],
    });
  });
}

const Upload = Struct('Upload', { title: v.string(), file: FileFormPart() });
class UploadEndpoint extends Endpoint('/upload') {
  post = this.operation({ form: Upload, returns: v.unknown() }, ({ form }) => ({
    title: form.title,
    file: form.file.filename,
    text: form.file.content.toString('utf8'),
  }));
}

class Report extends Endpoint('/report') {
  get = this.operation(
    { returns: CsvRows },
    () =>
      new Csv([
        ['a', 'b'],
        ['c', 'd'],
      ]),
  );
}

/** Records the transport every app was wired for. */
const transports: Transport[] = [];
const recordTransport = defineExtension({
  name: 'record-transport',
  setup: (wiring) => void transports.push(wiring.transport),
});

class App extends BaseApp {
  protected override async wire() {
    this.include(recordTransport);
    this.includeResource(new WidgetResource());
    this.includeEndpoint(new Login());
    this.includeEndpoint(new UploadEndpoint());
    this.includeEndpoint(new Report());
  }
}

const json = (path: string, body: unknown): Request =>
  new Request(`http://api.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('app.fetch', () => {
  it('answers the quickstart through the same routes and funnel: 201 + Location, 200, 422, 404, 405', async () => {
    const app = new App({ logger: memoryLogger() });
    const created = await app.fetch(json('/widgets', { name: 'bolt', priceCents: 120 }));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/widgets/1');
    expect(created.headers.get('content-type')).toBe('application/json');
    const body = '{"id":"1","name":"bolt","priceCents":120}';
    expect(created.headers.get('content-length')).toBe(String(body.length));
    expect(await created.text()).toBe(body);

    const found = await app.fetch(new Request('http://api.test/widgets/1'));
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ id: '1', name: 'bolt', priceCents: 120 });

    const invalid = await app.fetch(json('/widgets', { name: 'bolt', priceCents: 'x' }));
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('content-type')).toBe('application/problem+json');
    expect(await invalid.json()).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: 'Expected number, got string at `$.priceCents`',
      params: {
        reason: 'Expected number, got string at `$.priceCents`',
        issues: [{ path: '$.priceCents', message: 'Expected number, got string' }],
      },
    });

    const missing = await app.fetch(new Request('http://api.test/widgets/2'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ type: 'not-found', title: 'Not found', status: 404 });

    const wrong = await app.fetch(new Request('http://api.test/widgets/1', { method: 'DELETE' }));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await app.close();
  });

  it('answers HEAD with the GET head (content-length included) and no body; OPTIONS with 204 + allow', async () => {
    const app = new App({ logger: memoryLogger() });
    await app.fetch(json('/widgets', { name: 'bolt', priceCents: 120 }));
    const head = await app.fetch(new Request('http://api.test/widgets/1', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('41');
    expect(head.body).toBeNull();
    const options = await app.fetch(new Request('http://api.test/widgets', { method: 'OPTIONS' }));
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    expect(options.headers.get('connection')).toBeNull();
    await app.close();
  });

  it('sends one set-cookie per cookie', async () => {
    const app = new App({ logger: memoryLogger() });
    const res = await app.fetch(new Request('http://api.test/login', { method: 'POST' }));
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([
      'session=abc; Path=/; Secure; HttpOnly; SameSite=Lax',
      'theme=dark; Path=/; Secure; SameSite=Lax',
    ]);
    await app.close();
  });

  it('reads a body arriving in chunks, and refuses one over the limit with 413 before reading it all', async () => {
    const app = new App({ logger: memoryLogger(), limits: { maxBodyBytes: 1024 } });
    const chunks = ['{"name":"b', 'olt","priceCents":', '7}'];
    const ok = await app.fetch(
      new Request('http://api.test/widgets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit),
    );
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ id: '1', name: 'bolt', priceCents: 7 });

    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(512).fill(32));
      },
    });
    const tooLarge = await app.fetch(
      new Request('http://api.test/widgets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()) as unknown).toMatchObject({ type: 'payload-too-large', status: 413 });
    // Refused as soon as it crossed 1 KiB: the rest of the endless body is never read.
    expect(pulled).toBeLessThan(8);
    await app.close();
  });

  it('reads a body with a declared length in one read, and refuses a declared length over the limit unread', async () => {
    const app = new App({ logger: memoryLogger(), limits: { maxBodyBytes: 1024 } });
    const body = '{"name":"bolt","priceCents":7}';
    const ok = await app.fetch(
      new Request('http://api.test/widgets', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
        body,
      }),
    );
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ id: '1', name: 'bolt', priceCents: 7 });

    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(512).fill(32));
      },
    });
    const declared = await app.fetch(
      new Request('http://api.test/widgets', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '4096' },
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(declared.status).toBe(413);
    expect((await declared.json()) as unknown).toMatchObject({ type: 'payload-too-large', status: 413 });
    // Refused by its content-length before a byte was read (a stream pulls ahead at most once).
    expect(pulled).toBeLessThan(2);
    await app.close();
  });

  it('binds a multipart form from a fetch body', async () => {
    const app = new App({ logger: memoryLogger() });
    const form = new FormData();
    form.set('title', 'report');
    form.set('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    const res = await app.fetch(new Request('http://api.test/upload', { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ title: 'report', file: 'hello.txt', text: 'hello' });
    await app.close();
  });

  it("streams an extension response kind's body as a ReadableStream", async () => {
    const app = new App({ logger: memoryLogger() });
    const res = await app.fetch(new Request('http://api.test/report'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.body).toBeInstanceOf(ReadableStream);
    expect(await res.text()).toBe('a,b\r\nc,d\r\n');
    await app.close();
  });

  it('returns the Response itself when the answer is decided within the call, a promise otherwise', async () => {
    const app = new App({ logger: memoryLogger() });
    // The first call starts the app: a promise.
    const first = app.fetch(new Request('http://api.test/widgets/1'));
    expect(first).toBeInstanceOf(Promise);
    expect((await first).status).toBe(404);
    // A synchronous route (and the router's own answers): the Response, no promise.
    const missing = app.fetch(new Request('http://api.test/widgets/1'));
    expect(missing).toBeInstanceOf(Response);
    expect((missing as Response).status).toBe(404);
    expect(await (missing as Response).json()).toMatchObject({ status: 404 });
    const report = app.fetch(new Request('http://api.test/report'));
    expect(report).toBeInstanceOf(Response);
    expect(await (report as Response).text()).toBe('a,b\r\nc,d\r\n');
    // A body to read first: a promise of the answer.
    const created = app.fetch(
      new Request('http://api.test/widgets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"bolt","priceCents":5}',
      }),
    );
    expect(created).toBeInstanceOf(Promise);
    expect((await created).status).toBe(201);
    await app.close();
  });

  it('refuses a target over 8 KiB with 414 and too many headers with 431', async () => {
    const app = new App({ logger: memoryLogger(), limits: { maxHeaders: 4 } });
    const long = await app.fetch(new Request(`http://api.test/widgets/${'a'.repeat(9000)}`));
    expect(long.status).toBe(414);
    const headers = Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`x-h${n}`, 'v']));
    const many = await app.fetch(new Request('http://api.test/widgets/1', { headers }));
    expect(many.status).toBe(431);
    await app.close();
  });
});

describe('the transport an app is started for', () => {
  it("is 'fetch' when app.fetch starts the app, 'node' for start() and serve()", async () => {
    transports.length = 0;
    const fetched = new App({ logger: memoryLogger() });
    await fetched.fetch(new Request('http://api.test/widgets/1'));
    const started = new App({ logger: memoryLogger() });
    await started.start();
    const served = await serve(new App({ logger: memoryLogger() }), { port: 0, quiet: true, signals: false });
    expect(transports).toEqual(['fetch', 'node', 'node']);
    // app.fetch answers on an app started for node too (on Node both transports work).
    expect((await started.fetch(new Request('http://api.test/widgets/1'))).status).toBe(404);
    await Promise.all([fetched.close(), started.close(), served.close()]);
  });

  it('refuses serve() on an app started for fetch, and start({ transport: "fetch" }) on one started for node', async () => {
    const fetched = new App({ logger: memoryLogger() });
    await fetched.start({ transport: 'fetch' });
    const refused = serve(fetched, { port: 0, quiet: true, signals: false });
    expectWiringError(await refused.catch((e: unknown) => e), 'API_WIRING_APP_STATE', 'App');
    await expect(refused).rejects.toThrow(
      "App: started for the fetch transport (by app.fetch, or start({ transport: 'fetch' })), so serve() cannot run it on node:http",
    );
    const started = new App({ logger: memoryLogger() });
    await started.start();
    const again: unknown = await started.start({ transport: 'fetch' }).catch((e: unknown) => e);
    expectWiringError(again, 'API_WIRING_APP_STATE', 'App');
    await expect(started.start({ transport: 'fetch' })).rejects.toThrow(
      'App: already started for node:http (serve() or start()), asked to start for the fetch transport',
    );
    const edge = () => started.start({ transport: 'edge' as never });
    expectWiringError(edge, 'API_WIRING_INVALID_ARGUMENT', 'App.start(options)');
    expect(() => started.start({ transport: 'edge' as never })).toThrow(
      "App.start(options): transport must be 'node' or 'fetch', got a string",
    );
    await Promise.all([fetched.close(), started.close()]);
  });

  it('answers 503 (logged) when the app fails to start on the first fetch', async () => {
    class Broken extends BaseApp {
      protected override async wire() {
        throw new WiringError('Broken: nothing to wire. Fix: wire something.');
      }
    }
    const log = memoryLogger();
    const res = await new Broken({ logger: log }).fetch(new Request('http://api.test/'));
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toEqual({
      type: 'service-unavailable',
      title: 'Service unavailable',
      status: 503,
    });
    expect(log.lines).toEqual(['error Broken failed to start']);
  });
});
