// The README's example is run as written, and prints what its `// →` comments promise.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function blocks(lang: string): string[] {
  return [...readme.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```\s*$/gm)]
    .filter(([, l]) => l === lang)
    .map(([, , code]) => code!);
}

describe('README', () => {
  it('starts with the install line, and its example runs and prints what it promises', () => {
    expect(blocks('sh')[0]).toContain('pnpm add @api/core @api/ws valibot');
    const example = blocks('ts')[0]!;
    const promised = [...example.matchAll(/\/\/ → (.*)$/gm)].map(([, text]) => text!.trim());
    expect(promised.length).toBeGreaterThan(0);
    const file = `${packageDir}readme-example.tmp.ts`;
    writeFileSync(file, example);
    try {
      const run = spawnSync(process.execPath, ['--conditions=@api/source', '--import', 'tsx', file], {
        cwd: packageDir,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stdout.split('\n').map((l) => l.trim());
      let at = 0;
      for (const text of promised) {
        const found = lines.indexOf(text, at);
        expect(found, `"${text}" in\n${run.stdout}`).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    } finally {
      rmSync(file, { force: true });
    }
  }, 40_000);
});
