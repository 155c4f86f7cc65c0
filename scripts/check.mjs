// Runs every check (build, typecheck, lint, tests) through turbo, then prints one
// `N passed, N failed` line summed over every package's vitest JSON report.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dirs = ['packages', 'apps']
  .flatMap((d) => (existsSync(join(root, d)) ? readdirSync(join(root, d)).map((p) => join(root, d, p)) : []))
  .concat([join(root, 'bench')]);
for (const dir of dirs) rmSync(join(dir, '.vitest-result.json'), { force: true });

const turbo = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', 'typecheck', 'typecheck:dist', 'lint', 'test', '--continue', '--output-logs=new-only'],
  { cwd: root, stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
let skipped = 0;
for (const dir of dirs) {
  const file = join(dir, '.vitest-result.json');
  if (!existsSync(file)) continue;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  if (!r.success && r.numFailedTests === 0) failed += 1; // a suite that failed to load
}
const checksFailed = turbo.status !== 0;
if (checksFailed) {
  console.error('\nturbo reported a failing task (build, typecheck, lint or test); see the log above.');
  if (failed === 0) failed = 1;
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(checksFailed || failed > 0 ? 1 : 0);
