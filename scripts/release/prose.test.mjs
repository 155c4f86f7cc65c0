// What a newcomer reads first renders as written, and what they run first prints no noise.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './manifest.mjs';
import { gluedCodeSpans } from './prose.mjs';

const dirs = (parent) =>
  readdirSync(join(root, parent), { withFileTypes: true }).filter((d) => d.isDirectory());
const MARKDOWN = [
  'README.md',
  'CONTRIBUTING.md',
  'apps/demo/README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...dirs('packages').map((d) => `packages/${d.name}/README.md`),
];

describe('prose', () => {
  it('finds a glued code span (the check can fail)', () => {
    expect(gluedCodeSpans('a known path answers `405`with`Allow`, and a`WiringError`s list')).toEqual([
      { line: 1, span: '`405`' },
      { line: 1, span: '`Allow`' },
      { line: 1, span: '`WiringError`' },
    ]);
    expect(gluedCodeSpans('`WiringError`s, ``a `b` c``, and\n```ts\nx`y`z\n```')).toEqual([]);
  });

  it.each(MARKDOWN)('%s has no code span glued to a word', (file) => {
    expect(gluedCodeSpans(readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });
});

describe('vitest configs', () => {
  it.each([...dirs('packages').map((d) => `packages/${d.name}`), 'apps/demo'])(
    '%s/vitest.config.ts imports the shared config with its extension (no Vite warning per run)',
    (dir) => {
      const config = readFileSync(join(root, dir, 'vitest.config.ts'), 'utf8');
      expect(config).toContain("from '../../config/vitest.ts'");
      expect(config).not.toMatch(/from '[^']*config\/vitest'/);
    },
  );
});
