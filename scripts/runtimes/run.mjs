// `pnpm test:runtimes`: the wire suite (suite/) on every target of targets.mjs, one after the
// other: the target's server runs under its runtime (a child process), the tests run here under
// Node's vitest and drive it over HTTP. Prints `<target>: N passed, N failed` per target and a
// closing `runtimes: N passed, N failed`; writes the counts to .build/summary.json for
// scripts/check.mjs. A target that cannot run (no binary for this machine) counts as failed:
// nothing is ever reported as passed that did not run. `node run.mjs bun deno` runs some.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binary, here, targets } from './targets.mjs';

const wanted = process.argv.slice(2).filter((a) => a !== '--');
const chosen = wanted.length === 0 ? targets : targets.filter((t) => wanted.includes(t.name));
if (chosen.length === 0) {
  console.error(`unknown targets ${wanted.join(', ')}; known: ${targets.map((t) => t.name).join(', ')}`);
  process.exit(2);
}
const out = join(here, '.build');
mkdirSync(out, { recursive: true });
const vitest = join(here, 'node_modules', 'vitest', 'vitest.mjs');

const lines = [];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const target of chosen) {
  const bin = binary(target.runtime);
  if (!bin.path) {
    lines.push(`${target.name}: 0 passed, 1 failed (not run: ${bin.why})`);
    failed += 1;
    continue;
  }
  const report = join(out, `${target.name}.json`);
  rmSync(report, { force: true });
  console.log(
    `\n── ${target.name} (${target.kind === 'demo' ? 'serve()' : 'app.fetch'} on ${target.runtime}) ──`,
  );
  const run = spawnSync(
    process.execPath,
    [
      vitest,
      'run',
      '--config',
      join(here, 'vitest.config.ts'),
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    {
      cwd: here,
      stdio: 'inherit',
      // A hung runtime must not hold the whole check: each target gets 5 minutes.
      timeout: 5 * 60_000,
      env: { ...process.env, TARGET: target.name, TARGET_KIND: target.kind },
    },
  );
  let p = 0;
  let f = 0;
  let s = 0;
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    p = r.numPassedTests;
    f = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
    s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    if (!r.success && f === 0) f = 1; // the run failed outside any test (its server did not start)
  } else f = 1;
  if (run.status !== 0 && f === 0) f = 1;
  lines.push(
    `${target.name}: ${p} passed, ${f} failed${s ? `, ${s} skipped (known, see README)` : ''}${run.error ? ` (${run.error.message})` : ''}`,
  );
  passed += p;
  failed += f;
  skipped += s;
}
console.log('');
for (const line of lines) console.log(line);
console.log(`runtimes: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
writeFileSync(join(out, 'summary.json'), JSON.stringify({ passed, failed, skipped, lines }));
process.exit(failed > 0 ? 1 : 0);
