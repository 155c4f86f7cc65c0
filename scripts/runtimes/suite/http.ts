// Helpers for the runtime suite: requests to the target's server, raw sockets where fetch would
// hide the bytes.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { inject } from 'vitest';

export const url = (): string => inject('url');
export const target = (): string => inject('target');

/** `fetch` against the target's server. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${url()}${path}`, init);
}

/** A JSON request. */
export function send(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return call(path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export const AUTH = { authorization: 'Bearer token' } as const;

/** The probes' view of the server. */
export async function state(): Promise<{ pulls: number; teardown: number; teardownAt: number; tasks: string[] }> {
  return (await call('/_runtime/state')).json() as Promise<{
    pulls: number;
    teardown: number;
    teardownAt: number;
    tasks: string[];
  }>;
}

export async function resetState(): Promise<void> {
  await call('/_runtime/state', { method: 'DELETE' });
}

/** Polls `check` every 10 ms until it holds, or fails after `ms`. */
export async function until(check: () => Promise<boolean> | boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A raw HTTP/1.1 GET on its own socket: everything the server writes, as it arrives. */
export function rawGet(path: string): { socket: Socket; received: () => string; closed: Promise<void> } {
  const { hostname, port } = new URL(url());
  const socket = connect(Number(port), hostname);
  let data = '';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n\r\n`);
  return { socket, received: () => data, closed };
}

/** A raw GET whose socket reads nothing after the head (a stalled client). */
export function stalledGet(path: string): { socket: Socket; head: Promise<string> } {
  const { hostname, port } = new URL(url());
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  const head = new Promise<string>((resolve) => {
    let data = '';
    const onData = (chunk: Buffer): void => {
      data += chunk.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      if (end >= 0) {
        socket.off('data', onData);
        socket.pause();
        resolve(data.slice(0, end));
      }
    };
    socket.on('data', onData);
  });
  socket.write(`GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n\r\n`);
  return { socket, head };
}

/** A response read whole by node:http (no decompression, no headers added): what the wire carried. */
export interface Wire {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

/** One request through node:http's client, which adds nothing (unlike fetch's accept-encoding). */
export function wire(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; json?: unknown; body?: string } = {},
): Promise<Wire> {
  const headers = { ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = request(`${url()}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: all,
          text: () => all.toString('utf8'),
          json: <T>() => JSON.parse(all.toString('utf8')) as T,
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
