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

/** The closing line of `pnpm bench --quick`. */
export function summaryLine(rows, coRows = {}) {
  const part = (sc) => {
    const api = rows[sc]?.api;
    const co = coRows[sc] ?? {};
    const coPart =
      co['api/raw'] || co['api/fastify']
        ? ` (co-run: api/raw-cpu ${r2(co['api/raw']?.cpuRatio)} api/fastify ${r2(co['api/fastify']?.rpsRatio)})`
        : '';
    return `${sc} api/fastify ${r2(api?.rpsVsFastify)} api/raw-cpu ${r2(api?.cpuVsRaw)}${coPart}`;
  };
  return `bench: ${part('info')}; ${part('movies')}`;
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
      `block(s), each on a fresh pair of processes (which starts first alternates), warmed together on every ` +
      `scenario for ${meta.settings.corunWarmupS} s, then ${meta.settings.corunRuns} run(s) of ` +
      `${meta.settings.corunDurationS} s per scenario. Whatever slows the machine slows both alike, so these ` +
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

function markdown(meta, scenarios, rows, coRows) {
  const L = [];
  L.push(`# Benchmark ${meta.date}${meta.quick ? ' (quick)' : ''}`, '');
  L.push(
    `Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, Linux ${meta.machine.kernel}. ` +
      `Server pinned to core ${meta.settings.serverCore}, wrk (${meta.settings.wrkThreads} thread, ` +
      `${meta.settings.connections} connections) to core ${meta.settings.loadCore}. ` +
      `${meta.settings.rounds} interleaved round(s) of ${meta.settings.durationS} s after a ${meta.settings.warmupS} s warm-up per server and scenario.`,
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

  for (const sc of scenarios) {
    L.push(`## ${sc.name}: ${sc.label}`, '');
    L.push(
      '| server | req/s (median) | min–max | p50 ms | p99 ms | server CPU µs/req | CPU util | peak RSS MB | req/s ×raw | req/s ×fastify | CPU ×raw | CPU ×fastify | samples |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
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
          `${r.cpuUsPerReq.toFixed(1)} | ${(r.serverCpuUtil * 100).toFixed(0)}% | ${(r.peakRssKb / 1024).toFixed(1)} | ` +
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
  const stamp = meta.date.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z') + (meta.quick ? '-quick' : '');
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
  writeFileSync(`${base}.md`, markdown(meta, scenarios, rows, coRows));
  files.push(`${base}.md`);
  return { files, rows, summary: summaryLine(rows, coRows) };
}
