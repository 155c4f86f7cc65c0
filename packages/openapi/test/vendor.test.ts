// The vendored Scalar bundle is exactly the pinned release, with its notice, and its
// pre-compressed copies decompress to the same bytes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SCALAR_VERSION } from '../src/index';

const vendor = (name: string): Buffer => readFileSync(new URL(`../vendor/scalar/${name}`, import.meta.url));
const PINNED = 'bf091006bdc3af6067af77c2f534812e3e633e94a94e87138069f570f33b762c';

describe('vendor/scalar', () => {
  it('standalone.js has the pinned sha-256', () => {
    expect(createHash('sha256').update(vendor('standalone.js')).digest('hex')).toBe(PINNED);
  });

  it('standalone.js.gz and standalone.js.br decompress to the same bytes', () => {
    const js = vendor('standalone.js');
    expect(gunzipSync(vendor('standalone.js.gz')).equals(js)).toBe(true);
    expect(brotliDecompressSync(vendor('standalone.js.br')).equals(js)).toBe(true);
  });

  it('keeps the MIT notice and the version next to the bundle', () => {
    const licence = vendor('LICENSE').toString('utf8');
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) 2023-present Scalar\n/);
    expect(licence).toContain('Permission is hereby granted, free of charge');
    expect(vendor('VERSION').toString('utf8')).toBe(
      `@scalar/api-reference@1.72.1\nfile: dist/browser/standalone.js\nsha256: ${PINNED}\nlicense: MIT (see LICENSE)\n`,
    );
    expect(SCALAR_VERSION).toBe('1.72.1');
  });

  it('the re-extract script pins the same version and digest', () => {
    const script = readFileSync(new URL('../scripts/vendor-scalar.mjs', import.meta.url), 'utf8');
    expect(script).toContain(`export const SCALAR_VERSION = '${SCALAR_VERSION}';`);
    expect(script).toContain(`export const SCALAR_SHA256 = '${PINNED}';`);
  });
});
