// A package README's example, run as written: its install line is checked, its first ```ts block
// is written beside the package and run with Node (workspace packages from their sources, through
// tsx), and every `// → text` comment must appear, in order, as a line of what it prints. The
// conventions are the release check's (scripts/release/readme.mjs), tested here before packing.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** What a package's README test checks. */
export interface ReadmeExpectations {
  /** A line the first ```sh block contains, e.g. `pnpm add @api/core @api/tasks valibot`. */
  readonly install: string;
  /** How long the example may run, ms (default 30,000). */
  readonly timeoutMs?: number;
}

/** The code of the README's fenced blocks in language `lang`, in order. */
function blocks(readme: string, lang: string): string[] {
  return [...readme.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```\s*$/gm)]
    .filter(([, l]) => l === lang)
    .map(([, , code]) => code!);
}

/**
 * Declares the `README` suite of a package: the install line, then its example run and its
 * promised output.
 *
 * @param packageDir the package's folder (`new URL('..', import.meta.url)` from its `test/`)
 * @param expectations the install line to find, and the run's time limit
 * @example
 * testReadme(new URL('..', import.meta.url), { install: 'pnpm add @api/core @api/tasks valibot' });
 */
export function testReadme(packageDir: URL, expectations: ReadmeExpectations): void {
  const dir = fileURLToPath(packageDir);
  const timeoutMs = expectations.timeoutMs ?? 30_000;
  describe('README', () => {
    it(
      'starts with the install line, and its example runs and prints what it promises',
      () => {
        const readme = readFileSync(new URL('README.md', packageDir), 'utf8');
        expect(blocks(readme, 'sh')[0]).toContain(expectations.install);
        const example = blocks(readme, 'ts')[0]!;
        const promised = [...example.matchAll(/\/\/ → (.*)$/gm)].map(([, text]) => text!.trim());
        expect(promised.length).toBeGreaterThan(0);
        const file = `${dir}readme-example.tmp.ts`;
        writeFileSync(file, example);
        try {
          const run = spawnSync(process.execPath, ['--conditions=@api/source', '--import', 'tsx', file], {
            cwd: dir,
            encoding: 'utf8',
            timeout: timeoutMs,
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
      },
      timeoutMs + 10_000,
    );
  });
}
