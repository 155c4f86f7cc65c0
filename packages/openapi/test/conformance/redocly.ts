// `redocly lint` (the CLI, as a user would run it) with the redocly.yaml shipped in this package.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document } from './document';

/** The redocly.yaml shipped with @api/openapi. */
export const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));

/** One problem redocly reported. */
export interface LintProblem {
  readonly ruleId: string;
  readonly severity: 'error' | 'warn';
  readonly message: string;
  readonly location: string;
}

/** The lint outcome: `errors` must be empty; `warnings` are reported for information. */
export interface LintReport {
  readonly exitCode: number | null;
  readonly errors: readonly LintProblem[];
  readonly warnings: readonly LintProblem[];
  readonly output: string;
}

function redoclyBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
}

interface JsonOutput {
  readonly problems?: readonly {
    readonly ruleId: string;
    readonly severity: 'error' | 'warn';
    readonly message: string;
    readonly location?: readonly { readonly pointer?: string }[];
  }[];
}

/** Lints a document with `redocly lint --config redocly.yaml --format json`. */
export async function redoclyLint(document: Document, config = REDOCLY_CONFIG): Promise<LintReport> {
  const dir = mkdtempSync(join(tmpdir(), 'redocly-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document, null, 2));
  try {
    const { code, stdout, stderr } = await new Promise<{
      code: number | null;
      stdout: string;
      stderr: string;
    }>((resolve) => {
      execFile(
        process.execPath,
        [redoclyBin(), 'lint', '--config', config, '--format', 'json', file],
        {
          cwd: dir,
          timeout: 120_000,
          maxBuffer: 32 * 1024 * 1024,
          // No telemetry or update checks: the check runs offline.
          env: {
            ...process.env,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
            CI: 'true',
          },
        },
        (error, out, err) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out, stderr: err }),
      );
    });
    const start = stdout.indexOf('{');
    const parsed = (start >= 0 ? JSON.parse(stdout.slice(start)) : {}) as JsonOutput;
    const problems = (parsed.problems ?? []).map((p) => ({
      ruleId: p.ruleId,
      severity: p.severity,
      message: p.message,
      location: p.location?.[0]?.pointer ?? '',
    }));
    return {
      exitCode: code,
      errors: problems.filter((p) => p.severity === 'error'),
      warnings: problems.filter((p) => p.severity === 'warn'),
      output: `${stdout}\n${stderr}`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
