// Aggregation and report writing: <date>.json (everything), <date>.md (tables), <date>.svg/.png (bar chart).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { barChartSvg, barChartPng } from './chart.mjs';

export const median = (xs) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

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
    const base = rows[sc.name];
    for (const r of Object.values(base)) {
      r.rpsVsRaw = base.raw ? r.rps / base.raw.rps : NaN;
      r.rpsVsFastify = base.fastify ? r.rps / base.fastify.rps : NaN;
      r.cpuVsRaw = base.raw ? r.cpuUsPerReq / base.raw.cpuUsPerReq : NaN;
      r.cpuVsFastify = base.fastify ? r.cpuUsPerReq / base.fastify.cpuUsPerReq : NaN;
    }
  }
  return rows;
}

const r2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
const msStr = (us) => (Number.isFinite(us) ? (us / 1000).toFixed(2) : 'n/a');

/** The closing line of `pnpm bench --quick`. */
export function summaryLine(rows) {
  const part = (sc) => {
    const api = rows[sc]?.api;
    return `${sc} api/fastify ${r2(api?.rpsVsFastify)} api/raw-cpu ${r2(api?.cpuVsRaw)}`;
  };
  return `bench: ${part('info')}; ${part('movies')}`;
}

function markdown(meta, scenarios, rows) {
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
    'req/s relative to Fastify, server CPU per request relative to raw node:http (lower is better).',
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

export async function writeReport({ meta, scenarios, samples, outDir }) {
  const rows = aggregate(scenarios, meta.servers, samples);
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
  writeFileSync(`${base}.json`, JSON.stringify({ meta, aggregate: rows, samples }, null, 2) + '\n');
  files.push(`${base}.json`);
  writeFileSync(`${base}.md`, markdown(meta, scenarios, rows));
  files.push(`${base}.md`);
  return { files, rows, summary: summaryLine(rows) };
}
