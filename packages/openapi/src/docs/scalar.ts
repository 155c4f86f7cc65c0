import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The vendored Scalar release (see `vendor/scalar/VERSION` and `scripts/vendor-scalar.mjs`). */
export const SCALAR_VERSION = '1.72.1';
/** sha-256 of `vendor/scalar/standalone.js`, checked by the vendoring script and a test. */
export const SCALAR_SHA256 = 'bf091006bdc3af6067af77c2f534812e3e633e94a94e87138069f570f33b762c';

/** The vendored bundle and its pre-compressed copies. */
export interface ScalarBundle {
  readonly js: Buffer;
  readonly gzip: Buffer;
  readonly br: Buffer;
}

let cached: ScalarBundle | undefined;

/**
 * The `vendor/scalar` directory of this package. Found by walking up from this module, so it
 * works from `src/docs/scalar.ts` (tests, `@api/source`) and from the bundled `dist/index.js`.
 */
export function vendorDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'vendor', 'scalar');
    if (existsSync(join(candidate, 'standalone.js'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(
    `@api/openapi: vendor/scalar/standalone.js is missing next to ${fileURLToPath(import.meta.url)}; the package is incomplete (reinstall it)`,
  );
}

/** Reads the vendored bundle once per process (about 6 MiB with its compressed copies). */
export function scalarBundle(): ScalarBundle {
  if (cached) return cached;
  const dir = vendorDirectory();
  cached = {
    js: readFileSync(join(dir, 'standalone.js')),
    gzip: readFileSync(join(dir, 'standalone.js.gz')),
    br: readFileSync(join(dir, 'standalone.js.br')),
  };
  return cached;
}
