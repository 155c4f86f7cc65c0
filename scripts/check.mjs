// Runs every check (build, typecheck, lint, tests) through turbo, then the release checks
// (scripts/release: every published package packed, linted, installed from its tarball into an
// empty project and its README example run; independent versions under changesets), then the
// wire suite on every runtime (scripts/runtimes: Node 20/22/24, Bun, Deno, workerd), then prints
// one `N passed, N failed` line summed over every vitest JSON report and the runtimes' counts.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const release = join(root, 'scripts', 'release');
const dirs = ['packages', 'apps', 'examples']
  .flatMap((d) => (existsSync(join(root, d)) ? readdirSync(join(root, d)).map((p) => join(root, d, p)) : []))
  .concat([join(root, 'bench'), release]);
for (const dir of dirs) rmSync(join(dir, '.vitest-result.json'), { force: true });

// Turbo's anonymous telemetry is off for this repository's commands (and so is its first-run notice).
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };

const checks = spawnSync(
  'pnpm',
  [
    'exec',
    'turbo',
    'run',
    'build',
    'typecheck',
    'typecheck:dist',
    'lint',
    '--continue',
    '--output-logs=new-only',
  ],
  { cwd: root, stdio: 'inherit', env },
);
// Import cycles ESLint cannot see (type-only imports, inline import() types): dependency-cruiser.
const imports = spawnSync('node', ['scripts/check-imports.mjs'], { cwd: root, stdio: 'inherit', env });
// Test suites one package at a time: several of them time real sockets, shutdowns and child
// processes, and two cores shared by every suite at once make those timings meaningless.
const tests = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'test', '--continue', '--concurrency=1', '--output-logs=new-only'],
  { cwd: root, stdio: 'inherit', env },
);
const turbo = { status: checks.status || imports.status || tests.status };

console.log('\nrelease checks (scripts/release)');
const reports = [
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${join(release, '.vitest-result.json')}`,
];
const releaseRun = spawnSync(
  'pnpm',
  ['exec', 'vitest', 'run', '--config', join(release, 'vitest.config.mjs'), ...reports],
  {
    cwd: root,
    stdio: 'inherit',
    env,
  },
);

// The wire suite on every runtime, one target after another (each under a 5-minute cap).
console.log('\nruntimes (scripts/runtimes)');
const runtimesSummary = join(root, 'scripts', 'runtimes', '.build', 'summary.json');
rmSync(runtimesSummary, { force: true });
const runtimesRun = spawnSync('node', [join(root, 'scripts', 'runtimes', 'run.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env,
});

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(runtimesSummary)) {
  const r = JSON.parse(readFileSync(runtimesSummary, 'utf8'));
  passed += r.passed;
  failed += r.failed;
  skipped += r.skipped ?? 0;
}
if (runtimesRun.status !== 0 && !existsSync(runtimesSummary)) failed += 1;
for (const dir of dirs) {
  const file = join(dir, '.vitest-result.json');
  if (!existsSync(file)) continue;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  if (!r.success && r.numFailedTests === 0) failed += 1; // a suite that failed to load
}
if (releaseRun.status !== 0 && failed === 0) {
  console.error('\nthe release checks failed (see the log above).');
  failed = 1;
}
const checksFailed = turbo.status !== 0;
if (checksFailed) {
  console.error('\nturbo reported a failing task (build, typecheck, lint or test); see the log above.');
  if (failed === 0) failed = 1;
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(checksFailed || failed > 0 ? 1 : 0);
