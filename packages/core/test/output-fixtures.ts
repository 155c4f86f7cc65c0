// Shared set-up of the output-path tests (framing, hooks, status lines, body transforms): an app
// wired by a callback, served on a real port, and raw HTTP/1.1 exchanges that keep the bytes.
import { connect } from 'node:net';
import { afterEach } from 'vitest';
import {
  BaseApp,
  serve,
  type EndpointOperations,
  type ExceptionHandler,
  type Middleware,
  type MountOptions,
  type ResourceOperations,
  type RunningServer,
} from '../src/index';
import type { Extension } from '../src/extension';
import { memoryLogger } from './fixtures';

/** What a test's `wire` callback may call (BaseApp's helpers are protected). */
export interface Wire {
  endpoint<TRoute extends EndpointOperations>(route: TRoute, options?: MountOptions<TRoute>): void;
  resource<TRoute extends ResourceOperations>(route: TRoute, options?: MountOptions<TRoute>): void;
  middleware(middleware: Middleware): void;
  handler<TError extends Error>(handler: ExceptionHandler<TError>): void;
  include<T>(extension: Extension<T>): T;
}

/** An app whose routes a callback mounts. */
export class WiredApp extends BaseApp {
  readonly #wire: (w: Wire) => void;
  constructor(wire: (w: Wire) => void, log: ReturnType<typeof memoryLogger>) {
    super({ logger: log });
    this.#wire = wire;
  }
  protected override async wire(): Promise<void> {
    this.#wire({
      // A generic route: its kind was checked by Wire's own signature.
      endpoint: (route, options) => this.includeEndpoint(route as EndpointOperations, options as object),
      resource: (route, options) => this.includeResource(route as ResourceOperations, options as object),
      middleware: (mw) => this.includeMiddleware(mw),
      handler: (h) => this.includeExceptionHandler(h),
      include: (extension) => this.include(extension),
    });
  }
}

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Serves the app `wire` mounts on a free port; closed after the test. */
export async function listen(
  wire: (w: Wire) => void,
  log = memoryLogger(),
): Promise<{ port: number; log: ReturnType<typeof memoryLogger> }> {
  const server = await serve(new WiredApp(wire, log), { port: 0, signals: false, quiet: true });
  running.push(server);
  return { port: server.port, log };
}

/** Starts the app `wire` mounts and returns the startup error (or undefined). */
export async function startupError(wire: (w: Wire) => void): Promise<unknown> {
  try {
    const server = await serve(new WiredApp(wire, memoryLogger()), { port: 0, signals: false, quiet: true });
    running.push(server);
    return undefined;
  } catch (error) {
    return error;
  }
}

/** One response read off a raw socket: the head as sent and the body bytes its framing delimits. */
export interface WireResponse {
  readonly head: string;
  readonly statusLine: string;
  readonly status: number;
  /** Header lines as sent, lower-cased names. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Buffer;
  /** For chunked bodies: the payload of every chunk, in order. */
  readonly chunks: readonly Buffer[];
}

/** Every value of `name` in a response's head. */
export function values(res: WireResponse, name: string): string[] {
  return res.headers.filter(([n]) => n === name).map(([, v]) => v);
}

/**
 * Parses as many complete responses as `data` holds, the way a client (or a proxy) does: by the
 * framing the head declares. A response body that claims too few bytes leaves the rest to be read
 * as the next response (what a desync looks like).
 */
export function parseResponses(data: Buffer, headRequests: readonly boolean[] = []): WireResponse[] {
  const out: WireResponse[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = data.subarray(at, end).toString('latin1');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers = lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
    });
    const status = Number(statusLine.split(' ')[1]);
    let cursor = end + 4;
    let body: Buffer = Buffer.alloc(0);
    const chunks: Buffer[] = [];
    const te = headers.find(([n]) => n === 'transfer-encoding')?.[1];
    const length = headers.find(([n]) => n === 'content-length')?.[1];
    const bodiless = headRequests[out.length] === true || status === 204 || status === 304;
    if (!bodiless && te !== undefined && /chunked/i.test(te)) {
      for (;;) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd < 0) break;
        const size = Number.parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        cursor = lineEnd + 2;
        if (size === 0) {
          cursor += 2;
          break;
        }
        chunks.push(data.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
      body = Buffer.concat(chunks);
    } else if (!bodiless && length !== undefined) {
      body = data.subarray(cursor, cursor + Number(length));
      cursor += Number(length);
    }
    out.push({ head, statusLine, status, headers, body, chunks });
    at = cursor;
  }
  return out;
}

/**
 * Sends raw request bytes on one connection and collects everything until the server closes it
 * or `ms` pass (then the client closes): several pipelined requests share the connection.
 */
export function exchangeRaw(port: number, request: string, ms = 1500): Promise<Buffer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const received: Buffer[] = [];
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(received));
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', done);
    socket.on('close', done);
  });
}

/** A GET (or other bodiless request) as raw bytes, keep-alive unless `close`. */
export function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  close = false,
): string {
  const lines = Object.entries({ host: 'x', ...headers, ...(close ? { connection: 'close' } : {}) });
  return `${method} ${path} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

/** Polls until `check` holds (bounded), for log lines written after the response. */
export async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const started = Date.now();
  while (!check() && Date.now() - started < ms) await new Promise((resolve) => setTimeout(resolve, 5));
}
