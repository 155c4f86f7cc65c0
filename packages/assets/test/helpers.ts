import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { BaseApp, type Middleware } from '@api/core';
import type { Extension } from '@api/core/extension';
import { TestClient, type TestResponse } from '@api/testing';
import { assets, type AssetsOptions } from '../src/index';

export { memoryLogger } from '../../../config/test/memory-logger';
import { memoryLogger } from '../../../config/test/memory-logger';

const dirs: string[] = [];
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh temp directory (removed after the test) filled with `files` (relative path → content). */
export function tree(files: Record<string, string | Uint8Array> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'api-assets-'));
  dirs.push(root);
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, relative)), { recursive: true });
    writeFileSync(join(root, relative), content);
  }
  return root;
}

/** What an app under test installs in `wire()`, in order. */
export interface Wire {
  (app: { include<T>(e: Extension<T>): T; includeMiddleware(m: Middleware): void }): void | Promise<void>;
}

/** An app whose `wire()` runs `wire` (with access to the protected include helpers). */
export function appWith(wire: Wire, logger = memoryLogger()): BaseApp {
  class AssetsApp extends BaseApp {
    protected override async wire(): Promise<void> {
      await wire({
        include: (e) => this.include(e),
        includeMiddleware: (m) => this.includeMiddleware(m),
      });
    }
  }
  return new AssetsApp({ logger });
}

/** A started client for an app that serves `options` (closed after the test). */
export async function serveAssets(options: AssetsOptions, wire?: Wire): Promise<TestClient> {
  const client = new TestClient(
    appWith(async (app) => {
      app.include(assets(options));
      await wire?.(app);
    }),
  );
  clients.push(client);
  return client.start();
}

/** A started client for any app (closed after the test). */
export async function started(app: BaseApp): Promise<TestClient> {
  const client = new TestClient(app);
  clients.push(client);
  return client.start();
}

/** The response's header pairs without the ones node:http adds itself (date, connection, keep-alive). */
export function headerPairs(res: Pick<TestResponse, 'multiHeaders'>): [string, string][] {
  return res.multiHeaders
    .filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name.toLowerCase()))
    .map(([name, value]) => [name.toLowerCase(), value]);
}

/** Writes raw bytes on a socket (`connection: close` expected) and collects the whole answer. */
export function rawExchange(url: string, text: string): Promise<string> {
  const port = Number(new URL(url).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

/** Splits a raw HTTP/1.1 answer into status line, header lines (minus date/connection) and body. */
export function parseRaw(raw: string): { status: string; headers: string[]; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const [status, ...lines] = raw.slice(0, end).split('\r\n');
  return {
    status: status!,
    headers: lines.filter((l) => !/^(date|connection|keep-alive):/i.test(l)),
    body: raw.slice(end + 4),
  };
}

/** A GET on a raw socket with the given extra header lines, verbatim. */
export function rawGet(url: string, path: string, lines: string[] = [], method = 'GET'): Promise<string> {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: test', ...lines, 'Connection: close', '', ''].join(
    '\r\n',
  );
  return rawExchange(url, head);
}
