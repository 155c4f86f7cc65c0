// The published types: compiled against dist/index.d.ts (after `pnpm build`), with @api/auth's
// augmentation of core's MountOptions applying across the bundle boundary. Skipped before a build.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist', 'index.d.ts');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const source = (dir: string): string => `
import * as v from 'valibot';
import { BaseApp, Struct } from '@api/core';
import { bearerAuth } from '@api/auth';
import { Channel, websocket, WebSocketEndpoint, type WebSocket } from '${join(dir, 'dist', 'index.js')}';

const User = Struct('User', { id: v.string() });
const Admin = Struct('Admin', { id: v.string(), admin: v.literal(true) });
const Credentials = Struct('Credentials', { authorization: v.string() });
const gating = bearerAuth({ headers: Credentials, user: User, authenticate: () => ({ id: '1' }) });
const admins = bearerAuth({ headers: Credentials, user: Admin, authenticate: () => ({ id: '1', admin: true as const }) });
const Msg = Struct('Msg', { text: v.string() }, { tag: true });

class S extends WebSocketEndpoint('/s/{room}', { inbound: Msg, outbound: Msg }) {
  handle = this.handler({ user: User, path: Struct('P', { room: v.string() }) }, async ({ websocket, user, path }) => {
    const typed: WebSocket<{ type: 'Msg'; text: string }, { type: 'Msg'; text: string }> = websocket;
    for await (const m of typed) await typed.send({ type: 'Msg', text: m.text + user.id + path.room });
  });
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(websocket(new S(), { auth: gating, maxFrameSize: 10, pingInterval: 0 }));
    // @ts-expect-error the authenticator returns Admin, the handler declares User
    this.include(websocket(new S(), { auth: admins }));
    new Channel(Msg).publish('t', { type: 'Msg', text: 'x' });
    // @ts-expect-error not a Msg
    new Channel(Msg).publish('t', { type: 'Msg', text: 1 });
  }
}
void App;
`;

describe.skipIf(!existsSync(dist))('dist/index.d.ts', () => {
  it('does not reference ws types (users need no @types/ws)', () => {
    expect(readFileSync(dist, 'utf8')).not.toMatch(/from ['"]ws['"]/);
  });

  it('type-checks a user program, including the auth mount option', async () => {
    const dir = mkdtempSync(join(root, '.dist-types-'));
    try {
      const file = join(dir, 'check.ts');
      writeFileSync(file, source(root));
      const args = [
        tsc,
        '--noEmit',
        '--strict',
        '--exactOptionalPropertyTypes',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        '--target',
        'es2022',
        '--lib',
        'es2023,esnext.disposable',
        '--types',
        'node',
        '--skipLibCheck',
        'false',
        file,
      ];
      const result = await promisify(execFile)(process.execPath, args, { cwd: root }).then(
        () => ({ code: 0, out: '' }),
        (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }),
      );
      expect(result.out).toBe('');
      expect(result.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
