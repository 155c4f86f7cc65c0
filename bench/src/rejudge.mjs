// Judges a finished run again with the current rules (src/verdicts.mjs), from the samples its
// `.json` keeps: what a change to the rules says about runs measured before it. Prints the
// "Targets and agreement" section and the summary line; `--out DIR` writes the whole report there
// (never over the run's own files: `results/` keeps what each run said when it ran).
//
// Usage: pnpm --filter @api/bench rejudge results/<date>.json [--out DIR]
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SCENARIOS } from './scenarios.mjs';
import { aggregate, coRunRows, judgeRun, writeReport } from './report.mjs';
import { targetsMarkdown } from './verdicts.mjs';
import { argOf } from './harness/index.mjs';

/**
 * The targets of a run's saved report, judged with the current rules.
 *
 * @param run the parsed `.json` of a `pnpm bench` run
 * @returns `{ scenarios, targets, agreement, summary, markdown }`
 */
export function rejudge(run) {
  const { meta, samples = [], pairedSamples = [], coRunSamples = [] } = run;
  const names = new Set([...samples, ...pairedSamples, ...coRunSamples].map((s) => s.scenario));
  const scenarios = SCENARIOS.filter((sc) => names.has(sc.name));
  const judged = judgeRun({
    scenarios,
    rows: aggregate(scenarios, meta.servers, samples),
    pairedRows: pairedSamples.length > 0 ? aggregate(scenarios, meta.servers, pairedSamples) : undefined,
    coRows: coRunRows(scenarios, coRunSamples),
  });
  return {
    scenarios,
    ...judged,
    markdown: targetsMarkdown(scenarios, judged.targets, judged.agreement).join('\n'),
  };
}

async function main() {
  const file = process.argv[2];
  if (!file || file.startsWith('--')) {
    console.error('usage: pnpm --filter @api/bench rejudge results/<date>.json [--out DIR]');
    process.exit(2);
  }
  const run = JSON.parse(readFileSync(resolve(file), 'utf8'));
  const { scenarios, summary, markdown } = rejudge(run);
  console.log(markdown);
  console.log(summary);
  const out = argOf(process.argv, 'out', undefined);
  if (out === undefined) return;
  if (resolve(out) === resolve(file, '..')) {
    console.error(`--out ${out} is the run's own folder: results/ keeps what each run said when it ran`);
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  const meta = {
    ...run.meta,
    notes: [...(run.meta.notes ?? []), `Judged again on ${new Date().toISOString()} (src/rejudge.mjs).`],
  };
  const { files } = await writeReport({
    meta,
    scenarios,
    samples: run.samples ?? [],
    pairedSamples: run.pairedSamples ?? [],
    coRuns: run.coRunSamples ?? [],
    outDir: out,
  });
  console.log(files.join('\n'));
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main();
