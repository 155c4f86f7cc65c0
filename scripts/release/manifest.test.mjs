// Every published package's manifest and README, as they are in the repository.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestDrift, readManifest, root } from './manifest.mjs';
import { PUBLISHED } from './packages.mjs';
import { codeBlocks, exampleOf, headingsOf, installsOf } from './readme.mjs';

/** The sections every package README has, in this order (other sections may sit between them). */
const SHAPE = ['Example', 'Options', 'Not done yet'];

describe.each(PUBLISHED)('packages/%s', (name) => {
  const dir = join(root, 'packages', name);
  const manifest = readManifest(name);
  const readme = () => readFileSync(join(dir, 'README.md'), 'utf8');

  it('carries the release fields (licence, repository, homepage, bugs, publishConfig)', () => {
    expect(manifestDrift(name), 'fix: node scripts/release/manifest.mjs --write').toEqual([]);
    expect(manifest.files).toContain('dist');
    expect(manifest.files.filter((entry) => /^(src|test)\b/.test(entry))).toEqual([]);
  });

  it('has a real version (a tarball packed today is installable as what it is, never 0.0.0)', () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.version).not.toBe('0.0.0');
  });

  it('ships the root LICENSE', () => {
    expect(existsSync(join(dir, 'LICENSE'))).toBe(true);
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
  });

  it('lists other @api packages as peers with a ^ range (changesets moves it on a major)', () => {
    for (const [dep, range] of Object.entries(manifest.peerDependencies ?? {}))
      if (dep.startsWith('@api/')) expect(range, dep).toMatch(/^\^/);
    expect(Object.keys(manifest.dependencies ?? {}).filter((dep) => dep.startsWith('@api/'))).toEqual([]);
  });

  it('has a README of the common shape: install line, example, options, what is not done', () => {
    const markdown = readme();
    expect(installsOf(markdown).map((i) => i.name)).toContain(manifest.name);
    const headings = headingsOf(markdown);
    const found = SHAPE.map((section) => headings.indexOf(section));
    expect(Object.fromEntries(SHAPE.map((s, i) => [s, found[i] >= 0]))).toEqual(
      Object.fromEntries(SHAPE.map((s) => [s, true])),
    );
    expect([...found].sort((a, b) => a - b)).toEqual(found);
    // The install block comes first, the runnable example right under "## Example".
    const blocks = codeBlocks(markdown);
    expect(blocks[0]?.lang).toBe('sh');
    const afterExample = markdown.slice(markdown.indexOf('\n## Example\n'));
    expect(codeBlocks(afterExample)[0]?.code).toBe(exampleOf(markdown));
  });

  it('speaks of @api alone: the spec-name mapping lives in docs/porting-from-python.md', () => {
    expect(readme()).not.toMatch(/spec \(Python\)|## Spec name/i);
    const porting = readFileSync(join(root, 'docs', 'porting-from-python.md'), 'utf8');
    expect(headingsOf(porting)).toContain(manifest.name);
  });
});
