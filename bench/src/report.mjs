// Aggregation and report writing: <date>.json (everything), <date>.md (tables), <date>.svg/.png (bar chart).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { barChartSvg, barChartPng } from './chart.mjs';
import { coRunSummary } from './corun.mjs';
import { blockedInterval, median } from './harness/stats.mjs';
import { targetsMarkdown, targetsOfRun, summaryLine } from './verdicts.mjs';

export { median };

/**
 * `metric` of `server` over `base`, one ratio per round in which both have a sample (clean ones
 * preferred, as for the medians), with each ratio's block (`block` of the samples; a round of
 * fresh processes is a block of its own). Empty when `base` did not run.
 */
export function blockRatios(samples, server, base, metric) {
  const pick = (name) => {
    const byRound = new Map();
    for (const s of samples) {
      if (s.server !== name) continue;
      const had = byRound.get(s.round);
      if (had === undefined || (had.contaminated && !s.contaminated)) byRound.set(s.round, s);
    }
    return byRound;
  };
  const mine = pick(server);
  const theirs = pick(base);
  const ratios = [];
  const blocks = [];
  for (const [round, s] of mine) {
    const b = theirs.get(round);
    if (b === undefined || !(b[metric] > 0)) continue;
    ratios.push(s[metric] / b[metric]);
    blocks.push(s.block ?? round);
  }
  return { ratios, blocks };
}

/** `blockRatios` without the blocks. */
export const roundRatios = (samples, server, base, metric) =>
  blockRatios(samples, server, base, metric).ratios;

/** One row per (scenario, server). Clean samples are preferred; contaminated ones count only if nothing else exists. */
export function aggregate(scenarios, servers, samples) {
  const rows = {};
  for (const sc of scenarios) {
    rows[sc.name] = {};
    for (const name of servers) {
      const all = samples.filter((s) => s.scenario === sc.name && s.server === name);
      if (all.length === 0) continue;
      const clean = all.filter((s) => !s.contaminated);
      const use = clean.length > 0 ? clean : all;
      const rps = use.map((s) => s.rps);
      rows[sc.name][name] = {
        samples: all.length,
        used: use.length,
        contaminated: all.length - clean.length,
        onlyContaminated: clean.length === 0,
        rps: median(rps),
        rpsMin: Math.min(...rps),
        rpsMax: Math.max(...rps),
        p50Us: median(use.map((s) => s.latencyUs.p50)),
        p99Us: median(use.map((s) => s.latencyUs.p99)),
        cpuUsPerReq: median(use.map((s) => s.cpuUsPerReq)),
        writesPerResponse: median(use.map((s) => s.writesPerResponse ?? NaN)),
        userUsPerReq: median(use.map((s) => s.userUsPerReq ?? NaN)),
        sysUsPerReq: median(use.map((s) => s.sysUsPerReq ?? NaN)),
        readCallsPerReq: median(use.map((s) => s.readCallsPerReq ?? NaN)),
        writeCallsPerReq: median(use.map((s) => s.writeCallsPerReq ?? NaN)),
        switchesPerReq: median(use.map((s) => s.switchesPerReq ?? NaN)),
        bytesOutPerReq: median(use.map((s) => s.bytesOutPerReq ?? NaN)),
        serverCpuUtil: median(use.map((s) => s.serverCpuUtil)),
        peakRssKb: Math.max(...all.map((s) => s.peakRssKb)),
        statusOk: all.every((s) => s.statusOk),
        socketErrors: all.reduce((t, s) => t + s.socketErrors, 0),
      };
    }
    // Ratios are paired: each round measures every server back to back, so a ratio is taken within
    // a round (where this machine's drift hits both servers alike) and the median over rounds is
    // reported, with a 90% confidence interval of that median. The ratio of the per-server medians above mixes rounds.
    const perSc = samples.filter((s) => s.scenario === sc.name);
    for (const [name, r] of Object.entries(rows[sc.name])) {
      for (const [field, base, metric] of [
        ['rpsVsRaw', 'raw', 'rps'],
        ['rpsVsFastify', 'fastify', 'rps'],
        ['cpuVsRaw', 'raw', 'cpuUsPerReq'],
        ['cpuVsFastify', 'fastify', 'cpuUsPerReq'],
      ]) {
        const { ratios, blocks } = blockRatios(perSc, name, base, metric);
        const ci = blockedInterval(ratios, blocks);
        r[field] = median(ratios);
        r[`${field}Interval`] = [ci.lo, ci.hi];
        r[`${field}Coverage`] = ci.coverage;
        r[`${field}Pairs`] = ratios.length;
        r[`${field}Blocks`] = ci.blocks;
      }
    }
  }
  return rows;
}

const r2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
const msStr = (us) => (Number.isFinite(us) ? (us / 1000).toFixed(2) : 'n/a');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

/** Co-run summaries by scenario, then by `a/b`. */
export function coRunRows(scenarios, coRuns = []) {
  const out = {};
  for (const sc of scenarios) {
    out[sc.name] = {};
    const mine = coRuns.filter((r) => r.scenario === sc.name);
    for (const key of new Set(mine.map((r) => `${r.a}/${r.b}`))) {
      const runs = mine.filter((r) => `${r.a}/${r.b}` === key);
      out[sc.name][key] = { ...coRunSummary(runs), statusOk: runs.every((r) => r.statusOk) };
    }
  }
  return out;
}

function coRunMarkdown(meta, scenarios, coRows) {
  const keys = [...new Set(Object.values(coRows).flatMap((r) => Object.keys(r)))];
  if (keys.length === 0) return [];
  const L = ['## Co-runs', ''];
  L.push(
    `Each pair loaded at the same time: both servers pinned to core ${meta.settings.serverCore}, one wrk ` +
      `(-t1 -c${meta.settings.connections}) each on core ${meta.settings.loadCore}. ${meta.settings.corunBlocks} ` +
      `block(s); in each, per scenario, a fresh pair of processes (which starts first alternates), warmed ` +
      `together on that scenario for ${meta.settings.corunWarmupS} s (the core shared: half as many requests ` +
      `each), then ${meta.settings.corunRuns} run(s) of ${meta.settings.corunDurationS} s. Whatever slows the machine slows both alike, so these ` +
      'ratios hold to a few percent where back-to-back samples swing ±30% on a shared VM. Both servers stay busy ' +
      'and the core is split evenly between them, so the req/s ratio is the inverse CPU ratio. Median of the ' +
      'runs with a 90% confidence interval of the median (min–max under 5 runs).',
    '',
  );
  const q = (x, [lo, hi]) => `${r2(x)} (${r2(lo)}–${r2(hi)})`;
  L.push(
    `| scenario | ${keys.map((k) => `${k} CPU/request`).join(' | ')} | ${keys.map((k) => `${k} req/s`).join(' | ')} |`,
    `|---|${keys.map(() => '---:').join('|')}|${keys.map(() => '---:').join('|')}|`,
  );
  for (const sc of scenarios) {
    const row = coRows[sc.name];
    const flag = (k) => (row[k] && !row[k].statusOk ? ' (unexpected status)' : '');
    L.push(
      `| ${sc.name} | ${keys.map((k) => (row[k] ? q(row[k].cpuRatio, row[k].cpuInterval) + flag(k) : 'n/a')).join(' | ')} | ` +
        `${keys.map((k) => (row[k] ? q(row[k].rpsRatio, row[k].rpsInterval) : 'n/a')).join(' | ')} |`,
    );
  }
  L.push('');
  return L;
}

/**
 * User and system CPU and syscalls per request of each server, alone (the paired phase's turns, or
 * the standalone rounds in a run without one) and sharing the core (co-run samples): where a
 * server's CPU per request differs between the two settings, this says whether it is its own code
 * (user) or the kernel (system, syscalls), and how much more a co-run costs each server: why the
 * co-run's CPU ratio against raw is set aside from the CPU targets (src/verdicts.mjs).
 */
function usageMarkdown(scenarios, { rows, pairedRows }, coRuns) {
  const withUsage = coRuns.filter((r) => r.usageA);
  if (withUsage.length === 0) return [];
  const alone = pairedRows ?? rows;
  const aloneLabel = pairedRows ? 'paired turns' : 'standalone rounds';
  const L = [`## User and system CPU per request, alone (${aloneLabel}) and in a co-run`, ''];
  L.push(
    'Medians per request: user and system CPU µs (tick counters of /proc/<pid>/stat) and ' +
      'read/write-family syscalls (`/proc/<pid>/io`), context switches (voluntary + involuntary, all threads). ' +
      'In a co-run the two servers take turns on the core: every switch between them costs the one that resumes ' +
      'its cache contents, more for the one with the larger working set (_user ×alone_: its co-run user CPU over ' +
      "its own alone; the phases are minutes apart, so one run's figures carry drift too, and the case for " +
      "setting the co-run's CPU ratio aside from the CPU targets rests on many runs: bench/README.md, item 10).",
    '',
  );
  L.push(
    '| scenario | server | alone: user µs | system µs | reads | writes | context switches | co-run: user µs | system µs | reads | writes | context switches | user ×alone |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const sc of scenarios) {
    for (const name of ['raw', 'fastify', 'api']) {
      const r = alone?.[sc.name]?.[name];
      const co = [
        ...withUsage.filter((x) => x.scenario === sc.name && x.a === name).map((x) => x.usageA),
        ...withUsage.filter((x) => x.scenario === sc.name && x.b === name).map((x) => x.usageB),
      ];
      if (!r && co.length === 0) continue;
      const m = (k) => median(co.map((u) => u[k]));
      const more = co.length && r ? f2(m('userUs') / r.userUsPerReq) : 'n/a';
      L.push(
        `| ${sc.name} | ${name} | ${f1(r?.userUsPerReq)} | ${f1(r?.sysUsPerReq)} | ${f2(r?.readCallsPerReq)} | ${f2(r?.writeCallsPerReq)} | ${f3(r?.switchesPerReq)} | ` +
          `${co.length ? `${f1(m('userUs'))} | ${f1(m('sysUs'))} | ${f2(m('readCalls'))} | ${f2(m('writeCalls'))} | ${f3(m('switches'))}` : 'n/a | n/a | n/a | n/a | n/a'} | ${more} |`,
      );
    }
  }
  L.push('');
  return L;
}

/**
 * The ratios of one phase (standalone or paired): every server ×Fastify (req/s) and ×raw (CPU per
 * request), each the median of per-round ratios, and @api's with their 90% intervals.
 */
function ratiosMarkdown(names, scenarios, rows) {
  const L = [];
  L.push(
    `| scenario | ${names.map((n) => `${n} req/s ×fastify`).join(' | ')} | ${names.map((n) => `${n} cpu ×raw`).join(' | ')} |`,
  );
  L.push(`|---|${names.map(() => '---:').join('|')}|${names.map(() => '---:').join('|')}|`);
  for (const sc of scenarios) {
    const row = rows[sc.name];
    L.push(
      `| ${sc.name} | ${names.map((n) => r2(row[n]?.rpsVsFastify)).join(' | ')} | ${names.map((n) => r2(row[n]?.cpuVsRaw)).join(' | ')} |`,
    );
  }
  L.push('');
  if (!names.includes('api')) return L;
  const q = (r, f) =>
    r?.[`${f}Pairs`]
      ? `${r2(r[f])} (${r2(r[`${f}Interval`][0])}–${r2(r[`${f}Interval`][1])}, ${r[`${f}Pairs`]} rounds, ` +
        `${r[`${f}Blocks`]} blocks)`
      : 'n/a';
  L.push(
    "@api, median of its per-round ratios (90% confidence interval: of the median, or of the blocks' mean where wider; " +
      'rounds, blocks):',
    '',
  );
  L.push('| scenario | api req/s ×fastify | api cpu ×raw | api cpu ×fastify |', '|---|---:|---:|---:|');
  for (const sc of scenarios) {
    const r = rows[sc.name].api;
    L.push(`| ${sc.name} | ${q(r, 'rpsVsFastify')} | ${q(r, 'cpuVsRaw')} | ${q(r, 'cpuVsFastify')} |`);
  }
  L.push('');
  return L;
}

/** Per-server medians of the paired phase: req/s over its turns, CPU per request, syscalls and switches. */
function pairedMarkdown(meta, names, scenarios, rows) {
  const p = meta.settings.paired;
  const L = ['## Paired', ''];
  L.push(
    `Every server alone on the core, as in the standalone phase, but taking turns with the others: in each of ` +
      `${p.blocks} block(s), per scenario one fresh process per server, each warmed up alone for ${p.warmupS} s, then ` +
      `each loaded by its own wrk while all but one are stopped (SIGSTOP), in turns of ${p.turnMs} ms in rotating ` +
      `order; ${p.rounds} round(s) of ${p.sliceS} s per server. A ratio compares servers measured in the same ` +
      "instants, so the machine's drift " +
      'cancels. CPU per request: schedstat CPU time (all threads) per response; responses counted by write ' +
      "syscalls, calibrated against wrk's count (*writes/response*); req/s per second of the server's turns. No " +
      "latency: a stopped server's requests wait.",
    '',
  );
  L.push(...ratiosMarkdown(names, scenarios, rows));
  L.push(
    '| scenario | server | req/s (median) | min–max | CPU µs/req | user µs | system µs | switches/req | writes/response | peak RSS MB | rounds |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const sc of scenarios) {
    for (const n of names) {
      const r = rows[sc.name][n];
      if (!r) continue;
      L.push(
        `| ${sc.name} | ${n} | ${int(r.rps)} | ${int(r.rpsMin)}–${int(r.rpsMax)} | ${f1(r.cpuUsPerReq)} | ` +
          `${f1(r.userUsPerReq)} | ${f1(r.sysUsPerReq)} | ${f3(r.switchesPerReq)} | ${f3(r.writesPerResponse)} | ` +
          `${(r.peakRssKb / 1024).toFixed(1)} | ` +
          `${r.used}/${r.samples}${r.contaminated ? ` (${r.contaminated} contaminated)` : ''} |`,
      );
    }
  }
  L.push('');
  return L;
}

function markdown({ meta, scenarios, rows, pairedRows, coRows, coRuns = [], targets, agreement, summary }) {
  const L = [];
  L.push(
    `# Benchmark ${meta.date}${meta.quick ? ' (quick)' : meta.standalone ? ' (standalone)' : meta.settings.method === 'long-lived' ? ' (long-lived standalone)' : ''}`,
    '',
  );
  L.push(
    `Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, Linux ${meta.machine.kernel}. ` +
      `Server pinned to core ${meta.settings.serverCore}, wrk (${meta.settings.wrkThreads} thread, ` +
      `${meta.settings.connections} connections) to core ${meta.settings.loadCore}. ` +
      (meta.settings.rounds === 0
        ? 'No standalone phase in this run.'
        : meta.settings.method === 'long-lived'
          ? `Standalone (long-lived, \`--long-lived\`): every server started once and checked, then per scenario a ` +
            `${meta.settings.warmupS} s warm-up and ${meta.settings.rounds} interleaved round(s) of ${meta.settings.durationS} s on the same processes.`
          : `Standalone: ${meta.settings.rounds} round(s); in each, every server in turn (rotating order) as a fresh ` +
            `process, alone on its core: started, ${meta.settings.warmupS} s warm-up on the scenario, one ` +
            `${meta.settings.durationS} s run, stopped. The checks ran on processes of their own.`),
    '',
  );
  L.push('```', summary, '```', '');
  L.push('| component | version |', '|---|---|');
  for (const [k, v] of Object.entries(meta.versions)) L.push(`| ${k} | ${v} |`);
  L.push('');
  if (meta.skipped.length) L.push(`**Skipped:** ${meta.skipped.join(', ')} (see notes).`, '');
  const names = meta.servers;
  if (names.includes('api')) L.push(...targetsMarkdown(scenarios, targets, agreement));

  if (meta.settings.rounds > 0) {
    L.push('## Standalone', '');
    L.push(
      'req/s relative to Fastify, server CPU per request relative to raw node:http (lower is better). Each ratio is ' +
        'the median over rounds of the ratio within one round (servers are measured back to back in a round, so ' +
        "the machine's drift between rounds cancels); the per-server medians in the tables below mix rounds.",
      '',
    );
    L.push(...ratiosMarkdown(names, scenarios, rows));
  }
  if (pairedRows) L.push(...pairedMarkdown(meta, names, scenarios, pairedRows));
  L.push(...coRunMarkdown(meta, scenarios, coRows));
  L.push(...usageMarkdown(scenarios, { rows, pairedRows }, coRuns));

  for (const sc of meta.settings.rounds > 0 ? scenarios : []) {
    L.push(`## ${sc.name}: ${sc.label}`, '');
    L.push(
      '| server | req/s (median) | min–max | p50 ms | p99 ms | server CPU µs/req | user µs | system µs | read/write calls per req | bytes out per req | CPU util | peak RSS MB | req/s ×raw | req/s ×fastify | CPU ×raw | CPU ×fastify | samples |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const n of names) {
      const r = rows[sc.name][n];
      if (!r) continue;
      const flags = [
        r.contaminated
          ? `${r.contaminated} contaminated${r.onlyContaminated ? ' (all: numbers suspect)' : ''}`
          : '',
        r.statusOk ? '' : 'unexpected status',
        r.socketErrors ? `${r.socketErrors} socket errors` : '',
      ].filter(Boolean);
      L.push(
        `| ${n} | ${int(r.rps)} | ${int(r.rpsMin)}–${int(r.rpsMax)} | ${msStr(r.p50Us)} | ${msStr(r.p99Us)} | ` +
          `${r.cpuUsPerReq.toFixed(1)} | ${f1(r.userUsPerReq)} | ${f1(r.sysUsPerReq)} | ` +
          `${f2(r.readCallsPerReq)} / ${f2(r.writeCallsPerReq)} | ${int(r.bytesOutPerReq)} | ` +
          `${(r.serverCpuUtil * 100).toFixed(0)}% | ${(r.peakRssKb / 1024).toFixed(1)} | ` +
          `${r2(r.rpsVsRaw)} | ${r2(r.rpsVsFastify)} | ${r2(r.cpuVsRaw)} | ${r2(r.cpuVsFastify)} | ` +
          `${r.used}/${r.samples}${flags.length ? ` (${flags.join(', ')})` : ''} |`,
      );
    }
    L.push('');
  }

  L.push('## Notes', '');
  L.push(
    `- Quiet checks: ${meta.quiet.checks}, total wait ${(meta.quiet.waitedMs / 1000).toFixed(1)} s, ` +
      `gave up waiting ${meta.quiet.gaveUp} time(s). A sample is *contaminated* when CPU on core 0 or core 1 not ` +
      `explained by the server, wrk or the harness exceeded ${meta.settings.contaminationThreshold * 100}% of the window; ` +
      `it is retried up to ${meta.settings.retries} time(s), and medians use clean samples when there are any.`,
  );
  for (const n of meta.notes) L.push(`- ${n}`);
  L.push(`- Run took ${meta.elapsedS.toFixed(0)} s.`, '');
  L.push('![req/s and CPU per request](./' + meta.chartName + ')', '');
  return L.join('\n');
}

/**
 * The run's targets (@api's rows of each phase against src/verdicts.mjs), their agreement and the
 * summary line.
 *
 * @param options `scenarios`, `rows` (standalone, by `aggregate`), `pairedRows`, `coRows` (by `coRunRows`)
 */
export function judgeRun({ scenarios, rows, pairedRows, coRows }) {
  const apiRows = (byScenario) =>
    byScenario && Object.fromEntries(scenarios.map((sc) => [sc.name, byScenario[sc.name]?.api]));
  const { byScenario: targets, agreement } = targetsOfRun(
    scenarios,
    { standalone: apiRows(rows), paired: apiRows(pairedRows) },
    coRows,
  );
  return { targets, agreement, summary: summaryLine(targets, scenarios) };
}

/**
 * Writes `<date>[-kind].{json,md,svg,png}` to `outDir`. Resolves with the files, the standalone
 * rows and the summary line.
 *
 * @param options `meta`, `scenarios`, `samples` (standalone), `pairedSamples`, `coRuns`, `outDir`
 */
export async function writeReport({ meta, scenarios, samples, pairedSamples = [], coRuns = [], outDir }) {
  const rows = aggregate(scenarios, meta.servers, samples);
  const pairedRows = pairedSamples.length > 0 ? aggregate(scenarios, meta.servers, pairedSamples) : undefined;
  const coRows = coRunRows(scenarios, coRuns);
  const { targets, agreement, summary } = judgeRun({ scenarios, rows, pairedRows, coRows });
  const kind = meta.quick
    ? '-quick'
    : meta.standalone
      ? '-standalone'
      : meta.settings.method === 'long-lived'
        ? '-long-lived'
        : '';
  const stamp = meta.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z') + kind;
  const base = join(outDir, stamp);
  const chart = {
    scenarios: scenarios.map((s) => s.name),
    servers: meta.servers,
    rows: samples.length > 0 ? rows : (pairedRows ?? rows),
    title: `@api bench ${meta.date}`,
  };
  const files = [];
  writeFileSync(`${base}.svg`, barChartSvg(chart));
  files.push(`${base}.svg`);
  meta.chartName = `${stamp}.svg`;
  try {
    writeFileSync(`${base}.png`, barChartPng(chart));
    files.push(`${base}.png`);
  } catch (e) {
    meta.notes.push(`PNG chart not written: ${e.message}`);
  }
  writeFileSync(
    `${base}.json`,
    JSON.stringify(
      {
        meta,
        summary,
        targets,
        agreement,
        aggregate: rows,
        paired: pairedRows,
        coRuns: coRows,
        samples,
        pairedSamples,
        coRunSamples: coRuns,
      },
      null,
      2,
    ) + '\n',
  );
  files.push(`${base}.json`);
  writeFileSync(
    `${base}.md`,
    markdown({ meta, scenarios, rows, pairedRows, coRows, coRuns, targets, agreement, summary }),
  );
  files.push(`${base}.md`);
  return { files, rows, summary };
}
