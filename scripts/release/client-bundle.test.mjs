// @api/client in a browser: the client module of its README (the ```ts block that starts with
// `// client.ts`, importing the route class with `import type`) bundled by esbuild for the browser
// from the packed tarball, minified: at most 5 KB gzipped, and nothing in it but @api/client's own
// code (no @api/core, no valibot, no server class).
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest, root } from './manifest.mjs';
import { codeBlocks } from './readme.mjs';
import { pack, unpack } from './tarball.mjs';

/** esbuild, as tsup (a root dev dependency) depends on it. */
const esbuild = createRequire(createRequire(join(root, 'package.json')).resolve('tsup'))('esbuild');
const LIMIT = 5 * 1024;

const work = mkdtempSync(join(tmpdir(), 'api-client-bundle-'));
let packageDir;
beforeAll(async () => {
  const tarball = await pack('client', join(work, 'tarballs'));
  packageDir = await unpack(tarball, join(work, 'unpacked'));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('@api/client README client, bundled for the browser', () => {
  it('is at most 5 KB min+gzip and holds no server code', async () => {
    const markdown = readFileSync(join(root, 'packages', 'client', 'README.md'), 'utf8');
    const source = codeBlocks(markdown).find(
      (b) => b.lang === 'ts' && b.code.startsWith('// client.ts'),
    )?.code;
    expect(source, 'README: no ```ts block starting with `// client.ts`').toBeTruthy();
    expect(source).toMatch(/^import type \{ \w+ \} from '\.\/server';$/m);
    const entry = join(work, 'client.ts');
    writeFileSync(entry, source);
    const manifest = readManifest('client');
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      alias: { [manifest.name]: join(packageDir, manifest.exports['.'].default) },
    });
    const inputs = Object.keys(result.metafile.inputs);
    // The entry and the client's one file: `import type` from './server' was erased unresolved.
    expect(
      inputs.filter((input) => !input.endsWith('client.ts') && !input.includes('dist/index.js')),
    ).toEqual([]);
    const code = result.outputFiles[0].contents;
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(`@api/client README client: ${code.length} B min, ${gzipped} B min+gzip (limit ${LIMIT})`);
    expect(gzipped).toBeLessThanOrEqual(LIMIT);
    expect(new TextDecoder().decode(code)).not.toMatch(/valibot|WiringError|BaseApp/);
  });
});
