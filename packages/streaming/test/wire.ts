import { connect } from 'node:net';
import { afterEach } from 'vitest';
import {
  BaseApp,
  type EndpointOperations,
  type ExceptionHandler,
  type Middleware,
  type MountOptions,
} from '@api/core';
import type { Extension } from '@api/core/extension';
import { TestClient } from '@api/testing';
import { memoryLogger } from './fakes';

/** What a test app gets besides its routes. */
export interface AppSetup {
  /** Mounts the routes, inside `wire()`. */
  readonly wire: (app: TestApp) => void;
}

/** A BaseApp whose protected helpers the tests may call from `wire`. */
export class TestApp extends BaseApp {
  readonly log: ReturnType<typeof memoryLogger>;
  readonly #setup: AppSetup;
  constructor(setup: AppSetup, log = memoryLogger()) {
    super({ logger: log });
    this.log = log;
    this.#setup = setup;
  }
  protected override async wire(): Promise<void> {
    this.#setup.wire(this);
  }
  endpoint<TRoute extends EndpointOperations>(route: TRoute, options?: MountOptions<TRoute>): void {
    this.includeEndpoint(route as EndpointOperations, options as object);
  }
  handler<TError extends Error>(handler: ExceptionHandler<TError>): void {
    this.includeExceptionHandler(handler);
  }
  middleware(middleware: Middleware): void {
    this.includeMiddleware(middleware);
  }
  extension<T>(extension: Extension<T>): T {
    return this.include(extension);
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** Starts an app with the routes `wire` mounts; closed after the test. */
export async function start(
  setup: AppSetup | ((app: TestApp) => void),
): Promise<{ client: TestClient; app: TestApp }> {
  const app = new TestApp(typeof setup === 'function' ? { wire: setup } : setup);
  const client = new TestClient(app);
  clients.push(client);
  await client.start();
  return { client, app };
}

/** A raw HTTP/1.1 response with its chunked framing kept. */
export interface RawResponse {
  /** Status line and header lines, as sent. */
  readonly head: string;
  readonly status: number;
  /** The chunks' payloads, one per chunk of the chunked encoding. */
  readonly chunks: Buffer[];
  /** True when the terminating zero-length chunk arrived. */
  readonly terminated: boolean;
}

function parseChunked(body: Buffer): { chunks: Buffer[]; terminated: boolean } {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) return { chunks, terminated: false };
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return { chunks, terminated: body.indexOf('\r\n', lineEnd + 2) >= 0 };
    const start = lineEnd + 2;
    if (body.length < start + size + 2) return { chunks, terminated: false };
    chunks.push(body.subarray(start, start + size));
    at = start + size + 2;
  }
}

/**
 * Sends a request over a plain socket (`connection: close`) and reads until the server closes
 * it, keeping chunk boundaries: what the wire carried, framing included.
 */
export function rawRequest(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = {
    host: `${hostname}:${port}`,
    connection: 'close',
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  const request =
    `${method} ${path} HTTP/1.1\r\n` +
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n' +
    (options.body ?? '');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', () => undefined); // a cut connection ends as 'close' below
    socket.on('close', () => {
      const all = Buffer.concat(received);
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no response head in ${JSON.stringify(all.toString('latin1'))}`));
        return;
      }
      const head = all.subarray(0, split).toString('latin1');
      const status = Number(head.split(' ')[1]);
      const body = all.subarray(split + 4);
      const chunked = /\r\ntransfer-encoding: chunked/i.test(head);
      resolve({ head, status, ...(chunked ? parseChunked(body) : { chunks: [body], terminated: true }) });
    });
    socket.write(request);
  });
}

/** The value of a header in a raw head (first occurrence), lowercased name match. */
export function headerOf(head: string, name: string): string | undefined {
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (line.slice(0, colon).toLowerCase() === name) return line.slice(colon + 1).trim();
  }
  return undefined;
}

/** Polls `check` until it returns true or `ms` pass; resolves with the elapsed time. */
export async function waitFor(check: () => boolean, ms = 2000): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - started;
}

/** A raw HTTP/1.1 exchange read as it arrives (the head, then the chunked framing as sent). */
export interface RawStream {
  /** Everything received so far, framing included (latin1). */
  readonly text: () => string;
  /** Resolves once what was received matches `pattern`; rejects after `ms`. */
  readonly until: (pattern: RegExp, ms?: number) => Promise<void>;
  /** Resolves when the server closed the connection. */
  readonly closed: Promise<void>;
  /** The client leaves. */
  readonly close: () => void;
}

/** Opens a request on a plain socket and keeps reading: for streams that do not end by themselves. */
export function rawStream(url: string, path: string, headers: Record<string, string> = {}): RawStream {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (text: string) => (received += text));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const lines = Object.entries({ host: `${hostname}:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  return {
    text: () => received,
    until: async (pattern, ms = 2000) => {
      try {
        await waitFor(() => pattern.test(received), ms);
      } catch {
        throw new Error(`no ${String(pattern)} within ${ms} ms in ${JSON.stringify(received)}`);
      }
    },
    closed,
    close: () => socket.destroy(),
  };
}

/** One chunk of the chunked encoding, as it appears on the wire. */
export function chunk(payload: string): string {
  return `${Buffer.byteLength(payload).toString(16)}\r\n${payload}\r\n`;
}
