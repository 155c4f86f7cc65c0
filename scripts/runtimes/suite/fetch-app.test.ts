// The fetch app served through app.fetch by the runtime's own server (Bun.serve, Deno.serve,
// workerd): the quickstart's answers, auth, CORS and compression over a real socket.
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { target, url, wire } from './http';

/** The status line of a GET whose head has `lines` header lines (host and connection among them). */
function statusWithLines(lines: number): Promise<string> {
  const { hostname, port } = new URL(url());
  let head = `GET /widgets/nope HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: close\r\n`;
  for (let i = 2; i < lines; i++) head += `x-h${i}: v\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
    socket.end(head + '\r\n');
  });
}

/**
 * The most header lines each runtime's own server passes to app.fetch (core's server-bounds.ts
 * skips counting them there, the default limit of 200 being above), and how it refuses more.
 */
const SERVER_CAPS: Record<string, { lines: number; refusal: string } | undefined> = {
  'bun-fetch': { lines: 198, refusal: 'HTTP/1.1 431 Request Header Fields Too Large' },
  'deno-fetch': { lines: 128, refusal: 'HTTP/1.1 400 Bad Request' },
};

describe('app.fetch on the runtime server', () => {
  it('answers the quickstart: 201 + Location, 200, 422 Problem, 404, 405 + Allow', async () => {
    const created = await wire('POST', '/widgets', { json: { name: 'bolt', priceCents: 120 } });
    expect(created.status).toBe(201);
    const widget = created.json<{ id: string }>();
    expect(widget).toEqual({ id: widget.id, name: 'bolt', priceCents: 120 });
    expect(created.headers.location).toBe(`/widgets/${widget.id}`);
    expect(created.headers['content-type']).toBe('application/json');
    const found = await wire('GET', `/widgets/${widget.id}`);
    expect(found.status).toBe(200);
    expect(found.json()).toEqual(widget);
    const invalid = await wire('POST', '/widgets', { json: { name: 'bolt', priceCents: 'x' } });
    expect(invalid.status).toBe(422);
    expect(invalid.headers['content-type']).toBe('application/problem+json');
    expect(invalid.json()).toEqual({
      type: 'validation-failed',
      title: 'Validation failed',
      status: 422,
      detail: 'Expected number, got string at `$.priceCents`',
      params: {
        reason: 'Expected number, got string at `$.priceCents`',
        issues: [{ path: '$.priceCents', message: 'Expected number, got string' }],
      },
    });
    expect((await wire('GET', '/widgets/nope')).status).toBe(404);
    const wrong = await wire('DELETE', `/widgets/${widget.id}`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('refuses a head over the header limit: core 431 at 201 lines, or the server itself at its own cap', async () => {
    const cap = SERVER_CAPS[target()];
    if (cap === undefined) {
      // No cap known below the limit (workerd): core counts, 200 lines pass and 201 get its 431.
      expect(await statusWithLines(200)).toMatch(/^HTTP\/1\.1 404 /);
      expect(await statusWithLines(201)).toMatch(/^HTTP\/1\.1 431 /);
      return;
    }
    // Pinned: a runtime upgrade that moves its cap fails here (server-bounds.ts must follow).
    expect(await statusWithLines(cap.lines)).toMatch(/^HTTP\/1\.1 404 /);
    expect(await statusWithLines(cap.lines + 1)).toBe(cap.refusal);
    expect(await statusWithLines(201)).toBe(cap.refusal);
  });

  it('authenticates with bearer tokens (401 + challenge without one)', async () => {
    const denied = await wire('GET', '/me');
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toBe('Bearer');
    const me = await wire('GET', '/me', { headers: { authorization: 'Bearer token' } });
    expect(me.status).toBe(200);
    expect(me.json()).toEqual({ name: 'ada' });
  });

  it('sends CORS headers and answers a preflight', async () => {
    expect((await wire('GET', '/widgets/nope')).headers['access-control-allow-origin']).toBe('*');
    const pre = await wire('OPTIONS', '/widgets', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE');
  });

  it('compresses when asked (gzip), plain otherwise', async () => {
    const plain = await wire('GET', '/essay');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await wire('GET', '/essay', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(plain.text());
  });

  it('serves static files from a files map: type, ETag, gzip copy, 304', async () => {
    const hello = await wire('GET', '/static/hello.txt');
    expect(hello.status).toBe(200);
    expect(hello.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(hello.headers['cache-control']).toBe('public, max-age=60');
    expect(hello.text()).toBe('hello from memory\n');
    const css = await wire('GET', '/static/css/site.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(css.status).toBe(200);
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(css.body).toString()).toBe(
      'h1 { font: 600 2rem/1.2 system-ui; color: #4f46e5; }\n'.repeat(20),
    );
    const etag = css.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}-gzip"$/);
    const again = await wire('GET', '/static/css/site.css', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});
