// The README quickstart (examples/quickstart/main.ts), run as it is under the target runtime: it
// must print what its `// →` comments promise.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- a plain .mjs module shared with run.mjs
import { scriptCommand } from '../targets.mjs';

const MAIN = fileURLToPath(new URL('../../../examples/quickstart/main.ts', import.meta.url));

/** The `// →` promises of main.ts, in order. */
const promised = readFileSync(MAIN, 'utf8')
  .split('\n')
  .flatMap((line) => {
    const at = line.indexOf('// → ');
    return at < 0 ? [] : [line.slice(at + 5).trim()];
  });

describe('the quickstart', () => {
  it('prints what its comments promise', async () => {
    const command = scriptCommand(inject('runtime')) as { path?: string; args?: string[]; why?: string };
    if (command.path === undefined) throw new Error(command.why);
    // Run from beside this package (examples/quickstart has no node_modules of its own: the release
    // checks install it from tarballs), so '@api/core' and 'valibot' resolve to the workspace's.
    const copy = fileURLToPath(new URL('../.build/quickstart/main.ts', import.meta.url));
    mkdirSync(fileURLToPath(new URL('../.build/quickstart/', import.meta.url)), { recursive: true });
    copyFileSync(MAIN, copy);
    const { stdout } = await promisify(execFile)(command.path, [...command.args!, copy], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      timeout: 60_000,
    });
    // serve()'s own lines (listening, shutting down, stopped) are not the example's output.
    const printed = stdout
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^App (listening on|shutting down|stopped)/.test(line));
    expect(promised.length).toBeGreaterThan(3);
    // Runtimes print objects differently (Bun: one key per line, double quotes, a trailing comma):
    // compare the text with spacing, quote style and trailing commas evened out.
    const even = (lines: string[]): string =>
      lines
        .join('')
        // eslint-disable-next-line no-control-regex -- colour codes, should a runtime add them
        .replace(/\u001b\[[0-9;]*m/g, '')
        .replace(/\s+/g, '')
        .replace(/"/g, "'")
        .replace(/,}/g, '}');
    expect(even(printed)).toBe(even(promised));
  });
});
