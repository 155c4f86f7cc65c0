// Shared set-up of the compression tests: an app wired by a callback, served by TestClient (real
// sockets, bytes as sent: nothing is decompressed for us), and a decoder per coding.
import * as zlib from 'node:zlib';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach } from 'vitest';
import {
  BaseApp,
  type EndpointOperations,
  type ExceptionHandler,
  type Middleware,
  type MountOptions,
  type ResourceOperations,
} from '@api/core';
import type { Extension } from '@api/core/extension';
import { TestClient, type TestResponse } from '@api/testing';

export { memoryLogger } from '../../../config/test/memory-logger';
import { memoryLogger } from '../../../config/test/memory-logger';

/** What a test's `wire` may call (BaseApp's helpers are protected). */
export interface Wire {
  endpoint<TRoute extends EndpointOperations>(route: TRoute, options?: MountOptions<TRoute>): void;
  resource<TRoute extends ResourceOperations>(route: TRoute, options?: MountOptions<TRoute>): void;
  middleware(middleware: Middleware): void;
  handler<TError extends Error>(handler: ExceptionHandler<TError>): void;
  include<T>(extension: Extension<T>): T;
}

/** An app whose `wire()` runs `wire`. */
export class WiredApp extends BaseApp {
  readonly #wire: (w: Wire) => void;
  constructor(wire: (w: Wire) => void, log = memoryLogger()) {
    super({ logger: log });
    this.#wire = wire;
  }
  protected override async wire(): Promise<void> {
    this.#wire({
      endpoint: (route, options) => this.includeEndpoint(route as EndpointOperations, options as object),
      resource: (route, options) => this.includeResource(route as ResourceOperations, options as object),
      middleware: (mw) => this.includeMiddleware(mw),
      handler: (h) => this.includeExceptionHandler(h),
      include: (extension) => this.include(extension),
    });
  }
}

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A started client for the app `wire` mounts (closed after the test). */
export async function serveApp(wire: (w: Wire) => void, log = memoryLogger()): Promise<TestClient> {
  const client = new TestClient(new WiredApp(wire, log));
  clients.push(client);
  return client.start();
}

/** The startup error of the app `wire` mounts. */
export async function startupError(wire: (w: Wire) => void): Promise<Error> {
  const client = new TestClient(new WiredApp(wire));
  clients.push(client);
  return client.start().then(
    () => {
      throw new Error('expected startup to fail');
    },
    (error: unknown) => error as Error,
  );
}

/** The body as the client reads it after undoing `content-encoding`. */
export function decoded(res: TestResponse): string {
  const coding = res.headers.get('content-encoding');
  if (coding === undefined) return res.body.toString();
  if (coding === 'gzip') return gunzipSync(res.body).toString();
  if (coding === 'br') return brotliDecompressSync(res.body).toString();
  // zstd exists in node:zlib from Node 22.15 (@types/node 20 does not know it).
  const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (coding === 'zstd' && zstd) return zstd(res.body).toString();
  throw new Error(`no decoder for ${coding} here`);
}
