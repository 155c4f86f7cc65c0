// The built, packed package carries the vendored Scalar files and finds them from dist/: build
// into a staging copy, `npm pack` it, install the tarball into an empty project (workspace
// @api/core linked in) and serve the docs script from the installed dist/index.js.
import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const root = join(pkg, '..', '..');
const require = createRequire(import.meta.url);

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${command} ${args.join(' ')}\n${stdout}${stderr}`)) : resolve(stdout),
    );
  });
}

let work: string;
let entries: string[];
let installed: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'openapi-pack-'));
  const stage = join(work, 'stage');
  mkdirSync(stage);
  for (const file of ['package.json', 'README.md', 'vendor']) {
    try {
      cpSync(join(pkg, file), join(stage, file), { recursive: true });
    } catch {
      // README.md may be absent while the package is being written
    }
  }
  // The build the package ships (tsup, ESM for node20), into the staging copy (never into the
  // package's own dist/, which a concurrent `turbo build` owns).
  const tsup = join(dirname(require.resolve('tsup/package.json')), 'dist', 'cli-default.js');
  await run(
    process.execPath,
    [
      tsup,
      'src/index.ts',
      '--format',
      'esm',
      '--target',
      'node20',
      '--out-dir',
      join(stage, 'dist'),
      '--no-config',
    ],
    pkg,
  );
  await run('npm', ['pack', '--silent', '--pack-destination', work], stage);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  entries = (await run('tar', ['-tzf', join(work, tarball)], work)).split('\n').filter(Boolean);

  const project = join(work, 'project');
  installed = join(project, 'node_modules', '@api', 'openapi');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(work, tarball), '-C', installed, '--strip-components=1'], work);
  const link = (name: string, target: string): void => {
    mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true });
    symlinkSync(target, join(project, 'node_modules', name), 'dir');
  };
  link('@api/core', join(root, 'packages', 'core'));
  link('@valibot/to-json-schema', realpathSync(join(pkg, 'node_modules', '@valibot', 'to-json-schema')));
  link('valibot', realpathSync(join(pkg, 'node_modules', 'valibot')));
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('contains dist, the vendored Scalar files and its notice, and nothing from src or test', () => {
    for (const file of [
      'package/package.json',
      'package/dist/index.js',
      'package/vendor/scalar/standalone.js',
      'package/vendor/scalar/standalone.js.gz',
      'package/vendor/scalar/standalone.js.br',
      'package/vendor/scalar/LICENSE',
      'package/vendor/scalar/VERSION',
    ]) {
      expect(entries).toContain(file);
    }
    expect(entries.filter((e) => e.startsWith('package/src/') || e.startsWith('package/test/'))).toEqual([]);
  });

  it('serves the docs page and the vendored script from the installed dist/index.js', async () => {
    const script = join(dirname(installed), '..', '..', 'check.mjs');
    writeFileSync(
      script,
      `import { createServer } from 'node:http';
import { BaseApp } from '@api/core';
import { openapi } from ${JSON.stringify(pathToFileURL(join(installed, 'dist', 'index.js')).href)};
class App extends BaseApp {
  async wire() { this.include(openapi({ title: 'Packed', version: '1.0.0' })); }
}
const app = new App({ logger: { info() {}, warn() {}, error() {} } });
await app.start();
const server = createServer(app.listener);
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = 'http://127.0.0.1:' + server.address().port;
const doc = await (await fetch(base + '/openapi.json')).json();
const page = await (await fetch(base + '/docs')).text();
const js = Buffer.from(await (await fetch(base + '/docs/scalar/1.72.1/standalone.js')).arrayBuffer());
server.close();
await app.close();
console.log(JSON.stringify({ openapi: doc.openapi, title: doc.info.title, page: page.includes('data-url'), js: js.length, sha: (await import('node:crypto')).createHash('sha256').update(js).digest('hex') }));
`,
    );
    const tsx = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;
    // @api/core is linked from the workspace and runs from its sources (tsx); the package under
    // test is the plain JavaScript from the tarball.
    const out = await run(
      process.execPath,
      ['--conditions=@api/source', '--import', tsx, script],
      dirname(script),
    );
    const result = JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
    expect(result).toEqual({
      openapi: '3.1.0',
      title: 'Packed',
      page: true,
      js: 4353277,
      sha: 'bf091006bdc3af6067af77c2f534812e3e633e94a94e87138069f570f33b762c',
    });
  }, 120_000);
});
