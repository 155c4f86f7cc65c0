#!/usr/bin/env node
// Re-extracts the vendored Scalar API reference bundle (see DECISIONS.md, "OpenAPI").
//
// The npm package @scalar/api-reference needs Node 22 and ~277 MB of dependencies; the docs page
// needs one self-contained browser file. So: `npm pack` the pinned version into a temp dir, take
// `package/dist/browser/standalone.js` and the licence, check the sha256, and write
// `vendor/scalar/` (standalone.js, LICENSE, VERSION, plus pre-compressed .gz and .br copies).
//
// Usage: node packages/openapi/scripts/vendor-scalar.mjs   (or `pnpm --filter @api/openapi vendor:scalar`)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const SCALAR_PACKAGE = '@scalar/api-reference';
export const SCALAR_VERSION = '1.72.1';
export const SCALAR_SHA256 = 'bf091006bdc3af6067af77c2f534812e3e633e94a94e87138069f570f33b762c';

const UPSTREAM_MIT_NOTICE = `MIT License

Copyright (c) 2023-present Scalar

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'vendor', 'scalar');

const work = mkdtempSync(join(tmpdir(), 'vendor-scalar-'));
try {
  console.log(`npm pack ${SCALAR_PACKAGE}@${SCALAR_VERSION} …`);
  execFileSync('npm', ['pack', `${SCALAR_PACKAGE}@${SCALAR_VERSION}`, '--silent'], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack produced no tarball');
  const listing = execFileSync('tar', ['-tzf', tarball], { cwd: work, encoding: 'utf8' }).split('\n');
  const licenceEntry = listing.find((f) => /^package\/licen[cs]e(\.md|\.txt)?$/i.test(f));
  // Extract only what we keep; nothing else of the package touches the disk.
  execFileSync(
    'tar',
    [
      '-xzf',
      tarball,
      'package/dist/browser/standalone.js',
      'package/package.json',
      ...(licenceEntry ? [licenceEntry] : []),
    ],
    { cwd: work, stdio: 'inherit' },
  );
  const bundle = readFileSync(join(work, 'package/dist/browser/standalone.js'));
  const digest = createHash('sha256').update(bundle).digest('hex');
  if (digest !== SCALAR_SHA256) {
    throw new Error(`standalone.js sha256 is ${digest}, expected ${SCALAR_SHA256}: refusing to vendor it`);
  }
  const pkg = JSON.parse(readFileSync(join(work, 'package/package.json'), 'utf8'));
  if (pkg.version !== SCALAR_VERSION || pkg.license !== 'MIT') {
    throw new Error(`unexpected package: version ${pkg.version}, license ${pkg.license}`);
  }
  // 1.72.1's tarball ships no LICENSE file (its package.json and README say MIT and point at the
  // repository's LICENSE); then the upstream notice below is what we keep next to the bundle.
  const licence = licenceEntry
    ? readFileSync(join(work, licenceEntry), 'utf8')
    : `${UPSTREAM_MIT_NOTICE}\n(The npm tarball of ${SCALAR_PACKAGE}@${SCALAR_VERSION} declares "license": "MIT" and ships no\nLICENSE file; this is the notice of https://github.com/scalar/scalar/blob/main/LICENSE.\nThird-party notices are kept verbatim inside standalone.js as /*! ... @license ... */ comments.)\n`;

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'standalone.js'), bundle);
  writeFileSync(join(out, 'standalone.js.gz'), gzipSync(bundle, { level: 9 }));
  writeFileSync(
    join(out, 'standalone.js.br'),
    brotliCompressSync(bundle, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: bundle.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  );
  writeFileSync(join(out, 'LICENSE'), licence);
  writeFileSync(
    join(out, 'VERSION'),
    `${SCALAR_PACKAGE}@${SCALAR_VERSION}\nfile: dist/browser/standalone.js\nsha256: ${SCALAR_SHA256}\nlicense: MIT (see LICENSE)\n`,
  );
  console.log(`wrote ${out} (standalone.js ${bundle.length} bytes, sha256 ${digest})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
