// Aggregation and report writing: <date>.json (everything), <date>.md (tables), <date>.svg/.png (bar chart).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { barChartSvg, barChartPng } from './chart.mjs';
import { coRunSummary } from './corun.mjs';
import { median, quartiles } from './harness/stats.mjs';

export { median };

/**
 * `metric` of `server` over `base`, one ratio per round in which both have a sample (clean ones
 * preferred, as for the medians). Empty when `base` did not run.
 */
export function pairedRatios(samples, server, base, metric) {
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
  for (const [round, s] of mine) {
    const b = theirs.get(round);
    if (b !== undefined && b[metric] > 0) ratios.push(s[metric] / b[metric]);
  }
  return ratios;
}

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
    // reported, with its quartiles. The ratio of the per-server medians above mixes rounds.
    const perSc = samples.filter((s) => s.scenario === sc.name);
    for (const [name, r] of Object.entries(rows[sc.name])) {
      for (const [field, base, metric] of [
        ['rpsVsRaw', 'raw', 'rps'],
        ['rpsVsFastify', 'fastify', 'rps'],
        ['cpuVsRaw', 'raw', 'cpuUsPerReq'],
        ['cpuVsFastify', 'fastify', 'cpuUsPerReq'],
      ]) {
        const ratios = pairedRatios(perSc, name, base, metric);
        r[field] = median(ratios);
        r[`${field}Quartiles`] = quartiles(ratios);
        r[`${field}Pairs`] = ratios.length;
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

/**
 * The targets, judged by each method, and whether the methods agree: the standalone rounds'
 * per-round ratios and the co-runs' ratios, each with its interquartile range; two ranges that
 * overlap agree.
 */
function targetsMarkdown(scenarios, rows, coRows) {
  const L = ['## Targets and agreement', ''];
  L.push(
    '@api req/s ×Fastify (target ≥ 1.10) and server CPU per request ×raw (target ≤ 1.10 on GET, ≤ 1.20 on POST), ' +
      'median (interquartile range) by each method. A verdict is *met* or *missed* when the whole range is on one ' +
      'side of the target, *unsettled* when it straddles it; the overall verdict needs both methods. *Agree*: the ' +
      "two methods' ranges overlap. Standalone ratios are taken within a round (samples seconds apart); the ratio " +
      'of the per-server medians is shown too.',
    '',
  );
  const q = (m, [lo, hi]) => (Number.isFinite(m) ? `${r2(m)} (${r2(lo)}–${r2(hi)})` : 'n/a');
  L.push(
    '| scenario | req/s ×Fastify standalone | of medians | co-run | agree | verdict | CPU ×raw standalone | of medians | co-run | agree | verdict |',
    '|---|---:|---:|---:|---|---|---:|---:|---:|---|---|',
  );
  for (const sc of scenarios) {
    const api = rows[sc.name].api;
    if (!api) continue;
    const co = coRows[sc.name] ?? {};
    const t = targetsOf(sc, api, co);
    const ofMedians = (base, field) => (rows[sc.name][base] ? api[field] / rows[sc.name][base][field] : NaN);
    const yes = (a) => (a === undefined ? 'n/a' : a ? 'yes' : '**no**');
    L.push(
      `| ${sc.name} | ${q(api.rpsVsFastify, api.rpsVsFastifyQuartiles)} | ${r2(ofMedians('fastify', 'rps'))} | ` +
        `${q(co['api/fastify']?.rpsRatio, co['api/fastify']?.rpsQuartiles ?? [])} | ${yes(t.rps.agree)} | ${t.rps.verdict} | ` +
        `${q(api.cpuVsRaw, api.cpuVsRawQuartiles)} | ${r2(ofMedians('raw', 'cpuUsPerReq'))} | ` +
        `${q(co['api/raw']?.cpuRatio, co['api/raw']?.cpuQuartiles ?? [])} | ${yes(t.cpu.agree)} | ${t.cpu.verdict} (≤ ${t.cpu.limit.toFixed(2)}) |`,
    );
  }
  L.push('');
  return L;
}

/** The targets of issue 27: @api req/s ≥ 1.10× Fastify everywhere; CPU ≤ 1.10× raw on GET, ≤ 1.20× on POST. */
export const TARGETS = { rpsVsFastify: 1.1, cpuVsRawGet: 1.1, cpuVsRawPost: 1.2 };

/**
 * `met` when the whole interquartile range `[lo, hi]` is on the target's side of `limit`, `missed`
 * when it is all on the other side, `unsettled` when the range straddles it (or nothing was measured).
 */
export function verdict([lo, hi], limit, atLeast) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return 'n/a';
  if (atLeast) return lo >= limit ? 'met' : hi < limit ? 'missed' : 'unsettled';
  return hi <= limit ? 'met' : lo > limit ? 'missed' : 'unsettled';
}

/**
 * The two targets of one scenario, each judged by the standalone rounds (per-round ratios'
 * quartiles) and by the co-runs, and together: `met`/`missed` when both methods say so,
 * `unsettled` otherwise. Also whether the two methods' ranges overlap (`agree`).
 */
export function targetsOf(sc, api, co = {}) {
  const cpuLimit = sc.method === 'GET' ? TARGETS.cpuVsRawGet : TARGETS.cpuVsRawPost;
  const judge = (stand, corun, limit, atLeast) => {
    const a = verdict(stand, limit, atLeast);
    const b = verdict(corun, limit, atLeast);
    const both = a === b ? a : b === 'n/a' ? a : 'unsettled';
    const agree =
      Number.isFinite(stand[0]) && Number.isFinite(corun[0])
        ? stand[0] <= corun[1] && corun[0] <= stand[1]
        : undefined;
    return { standalone: a, corun: b, verdict: both, agree, limit };
  };
  return {
    rps: judge(
      api?.rpsVsFastifyQuartiles ?? [NaN, NaN],
      co['api/fastify']?.rpsQuartiles ?? [NaN, NaN],
      TARGETS.rpsVsFastify,
      true,
    ),
    cpu: judge(
      api?.cpuVsRawQuartiles ?? [NaN, NaN],
      co['api/raw']?.cpuQuartiles ?? [NaN, NaN],
      cpuLimit,
      false,
    ),
  };
}

/** The closing line of `pnpm bench` (and `--quick`, `--standalone`): the ratios and the verdicts. */
export function summaryLine(rows, coRows = {}, scenarios = []) {
  const part = (name) => {
    const sc = scenarios.find((s) => s.name === name) ?? { name, method: name === 'movies' ? 'POST' : 'GET' };
    const api = rows[name]?.api;
    if (!api) return undefined;
    const co = coRows[name] ?? {};
    const coPart =
      co['api/raw'] || co['api/fastify']
        ? ` (co-run: api/raw-cpu ${r2(co['api/raw']?.cpuRatio)} api/fastify ${r2(co['api/fastify']?.rpsRatio)})`
        : '';
    const t = targetsOf(sc, api, co);
    return (
      `${name} api/fastify ${r2(api.rpsVsFastify)} api/raw-cpu ${r2(api.cpuVsRaw)}${coPart} ` +
      `[req/s target ${t.rps.verdict}, cpu target ${t.cpu.verdict}]`
    );
  };
  return `bench: ${['info', 'movies'].map((n) => part(n) ?? `${n} n/a`).join('; ')}`;
}

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
      'and the core is split evenly between them, so the req/s ratio is the inverse CPU ratio: compare it with ' +
      'the standalone tables above, which measure each server alone.',
    '',
  );
  const q = (x, [lo, hi]) => `${r2(x)} (${r2(lo)}–${r2(hi)})`;
  L.push(
    `| scenario | ${keys.map((k) => `${k} CPU/request (quartiles)`).join(' | ')} | ${keys.map((k) => `${k} req/s`).join(' | ')} |`,
    `|---|${keys.map(() => '---:').join('|')}|${keys.map(() => '---:').join('|')}|`,
  );
  for (const sc of scenarios) {
    const row = coRows[sc.name];
    const flag = (k) => (row[k] && !row[k].statusOk ? ' (unexpected status)' : '');
    L.push(
      `| ${sc.name} | ${keys.map((k) => (row[k] ? q(row[k].cpuRatio, row[k].cpuQuartiles) + flag(k) : 'n/a')).join(' | ')} | ` +
        `${keys.map((k) => (row[k] ? q(row[k].rpsRatio, row[k].rpsQuartiles) : 'n/a')).join(' | ')} |`,
    );
  }
  L.push('');
  return L;
}

/**
 * User and system CPU and syscalls per request of each server, alone (standalone samples) and
 * sharing the core (co-run samples): where a server's CPU per request differs between the two
 * settings, this says whether it is its own code (user) or the kernel (system, syscalls).
 */
function usageMarkdown(scenarios, rows, coRuns) {
  const withUsage = coRuns.filter((r) => r.usageA);
  if (withUsage.length === 0) return [];
  const L = ['## User and system CPU per request, alone and in a co-run', ''];
  L.push(
    'Medians per request: user and system CPU µs (tick counters of /proc/<pid>/stat) and ' +
      'read/write-family syscalls (`/proc/<pid>/io`), context switches (voluntary + involuntary, all threads). ' +
      'In a co-run the two servers take turns on the core: every switch between them costs the one that resumes ' +
      'its cache contents, more for the one with the larger working set.',
    '',
  );
  L.push(
    '| scenario | server | alone: user µs | system µs | reads | writes | context switches | co-run: user µs | system µs | reads | writes | context switches |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const sc of scenarios) {
    for (const name of ['raw', 'fastify', 'api']) {
      const r = rows[sc.name]?.[name];
      const co = [
        ...withUsage.filter((x) => x.scenario === sc.name && x.a === name).map((x) => x.usageA),
        ...withUsage.filter((x) => x.scenario === sc.name && x.b === name).map((x) => x.usageB),
      ];
      if (!r && co.length === 0) continue;
      const m = (k) => median(co.map((u) => u[k]));
      L.push(
        `| ${sc.name} | ${name} | ${f1(r?.userUsPerReq)} | ${f1(r?.sysUsPerReq)} | ${f2(r?.readCallsPerReq)} | ${f2(r?.writeCallsPerReq)} | ${f3(r?.switchesPerReq)} | ` +
          `${co.length ? `${f1(m('userUs'))} | ${f1(m('sysUs'))} | ${f2(m('readCalls'))} | ${f2(m('writeCalls'))} | ${f3(m('switches'))}` : 'n/a | n/a | n/a | n/a | n/a'} |`,
      );
    }
  }
  L.push('');
  return L;
}

function markdown(meta, scenarios, rows, coRows, coRuns = []) {
  const L = [];
  L.push(
    `# Benchmark ${meta.date}${meta.quick ? ' (quick)' : meta.standalone ? ' (standalone)' : meta.settings.method === 'long-lived' ? ' (long-lived standalone)' : ''}`,
    '',
  );
  L.push(
    `Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, Linux ${meta.machine.kernel}. ` +
      `Server pinned to core ${meta.settings.serverCore}, wrk (${meta.settings.wrkThreads} thread, ` +
      `${meta.settings.connections} connections) to core ${meta.settings.loadCore}. ` +
      (meta.settings.method === 'long-lived'
        ? `Standalone (long-lived, \`--long-lived\`): every server started once and checked, then per scenario a ` +
          `${meta.settings.warmupS} s warm-up and ${meta.settings.rounds} interleaved round(s) of ${meta.settings.durationS} s on the same processes.`
        : `Standalone: ${meta.settings.rounds} round(s); in each, every server in turn (rotating order) as a fresh ` +
          `process, alone on its core: started, ${meta.settings.warmupS} s warm-up on the scenario, one ` +
          `${meta.settings.durationS} s run, stopped. The checks ran on processes of their own.`),
    '',
  );
  L.push('| component | version |', '|---|---|');
  for (const [k, v] of Object.entries(meta.versions)) L.push(`| ${k} | ${v} |`);
  L.push('');
  if (meta.skipped.length) L.push(`**Skipped:** ${meta.skipped.join(', ')} (see notes).`, '');

  L.push('## Summary', '');
  L.push(
    'req/s relative to Fastify, server CPU per request relative to raw node:http (lower is better). Each ratio is ' +
      'the median over rounds of the ratio within one round (servers are measured back to back in a round, so ' +
      "the machine's drift between rounds cancels); the per-server medians in the tables below mix rounds.",
    '',
  );
  const names = meta.servers;
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
  if (names.includes('api')) {
    const q = (r, f) =>
      r
        ? `${r2(r[f])} (${r2(r[`${f}Quartiles`][0])}–${r2(r[`${f}Quartiles`][1])}, ${r[`${f}Pairs`]} rounds)`
        : 'n/a';
    L.push('@api with the quartiles of its per-round ratios:', '');
    L.push('| scenario | api req/s ×fastify | api cpu ×raw | api cpu ×fastify |', '|---|---:|---:|---:|');
    for (const sc of scenarios) {
      const r = rows[sc.name].api;
      L.push(`| ${sc.name} | ${q(r, 'rpsVsFastify')} | ${q(r, 'cpuVsRaw')} | ${q(r, 'cpuVsFastify')} |`);
    }
    L.push('');
  }
  L.push(...coRunMarkdown(meta, scenarios, coRows));
  if (names.includes('api')) L.push(...targetsMarkdown(scenarios, rows, coRows));
  L.push(...usageMarkdown(scenarios, rows, coRuns));

  for (const sc of scenarios) {
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

export async function writeReport({ meta, scenarios, samples, coRuns = [], outDir }) {
  const rows = aggregate(scenarios, meta.servers, samples);
  const coRows = coRunRows(scenarios, coRuns);
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
    rows,
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
    JSON.stringify({ meta, aggregate: rows, coRuns: coRows, samples, coRunSamples: coRuns }, null, 2) + '\n',
  );
  files.push(`${base}.json`);
  writeFileSync(`${base}.md`, markdown(meta, scenarios, rows, coRows, coRuns));
  files.push(`${base}.md`);
  return { files, rows, summary: summaryLine(rows, coRows, scenarios) };
}
