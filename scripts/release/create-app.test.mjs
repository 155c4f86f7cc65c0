// `pnpm create-app`: a new project in an empty temp folder, its @api packages packed from this
// checkout (real versions), installed the way a user's would be, then its own `test`, `build`
// and `start` scripts run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, parseArgs } from '../create-app/create-app.mjs';
import { readManifest } from './manifest.mjs';
import { run, userEnv } from './run.mjs';

const work = mkdtempSync(join(tmpdir(), 'api-create-app-'));
const dir = join(work, 'hello');
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('parseArgs', () => {
  it('resolves the folder from where pnpm ran, reads --with and --registry', () => {
    expect(parseArgs(['hello', '--with', 'cors,@api/openapi,testing'], '/home/me')).toEqual({
      dir: '/home/me/hello',
      extras: ['cors', 'openapi'],
      registry: false,
    });
    expect(parseArgs(['/tmp/x', '--registry', '--with=auth'], '/home/me')).toEqual({
      dir: '/tmp/x',
      extras: ['auth'],
      registry: true,
    });
  });

  it('refuses a missing folder, an unknown package and an unknown option, with the usage', () => {
    expect(() => parseArgs([], '/')).toThrow(/^usage: pnpm create-app <dir>/);
    expect(() => parseArgs(['x', '--with', 'corz'], '/')).toThrow('--with: no package @api/corz');
    expect(() => parseArgs(['x', '--offline'], '/')).toThrow(/^unknown option --offline\n\nusage:/);
  });
});

describe('a project from this checkout', () => {
  beforeAll(async () => {
    await createApp({ dir, extras: ['cors'], registry: false }, () => undefined);
  }, 600_000);

  it('depends on tarballs packed here, at real versions, with a pinned packageManager', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const version = (name) => readManifest(name).version;
    expect(manifest.dependencies).toMatchObject({
      '@api/core': `file:vendor/api-core-${version('core')}.tgz`,
      '@api/cors': `file:vendor/api-cors-${version('cors')}.tgz`,
    });
    expect(manifest.devDependencies['@api/testing']).toBe(
      `file:vendor/api-testing-${version('testing')}.tgz`,
    );
    expect(readdirSync(join(dir, 'vendor')).some((f) => f.includes('-0.0.0'))).toBe(false);
    expect(manifest.packageManager).toMatch(/^pnpm@\d+\.\d+\.\d+/);
    expect(Object.keys(manifest.scripts)).toEqual(['dev', 'build', 'start', 'test', 'typecheck']);
  });

  it('passes its own test and typecheck scripts', async () => {
    const test = await run('pnpm', ['test'], { cwd: dir, env: userEnv(), timeoutMs: 120_000 });
    expect(test.code, test.output).toBe(0);
    expect(test.output).toMatch(/# pass 2\n# fail 0/);
    const typecheck = await run('pnpm', ['typecheck'], { cwd: dir, env: userEnv() });
    expect(typecheck.code, typecheck.output).toBe(0);
  }, 180_000);

  it('builds, and the build serves the app', async () => {
    const build = await run('pnpm', ['build'], { cwd: dir, env: userEnv() });
    expect(build.code, build.output).toBe(0);
    const child = spawn('node', ['dist/main.js'], { cwd: dir, env: userEnv({ PORT: '0' }) });
    try {
      let out = '';
      const url = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line in 20 s:\n${out}`)), 20_000);
        child.stdout.setEncoding('utf8').on('data', (chunk) => {
          out += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
      });
      const created = await fetch(`${url}/widgets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bolt', priceCents: 120 }),
      });
      expect(created.status).toBe(201);
      expect(await created.json()).toEqual({ id: '1', name: 'bolt', priceCents: 120 });
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);
});
