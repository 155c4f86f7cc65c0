#!/usr/bin/env node
// What explains one server's CPU per request beside its own JavaScript: user vs kernel CPU, the
// syscalls and context switches it makes per response, bytes written and read, packets sent, page
// faults, garbage collections and RSS; per server, on the same scenarios as `pnpm bench`.
//
// Each (scenario, server) runs on a fresh process (pinned to core 0, `--trace-gc`), warmed up,
// then measured twice: a clean window (everything from /proc: CPU split, read/write syscalls and
// bytes, context switches, faults, RSS; GC lines from --trace-gc) and a window with
// `perf stat -e syscalls:…` attached (syscalls by type, packets; `strace -c -f` where perf cannot
// count tracepoints). Counts per request hardly depend on the machine's load; the CPU split does
// (run it on a quiet machine, it waits for one).
// Writes results/explain-<timestamp>.{md,json}.
// Usage: pnpm --filter @api/bench explain [--servers raw,fastify,api] [--scenarios info,movies]
//          [--rounds 2] [--warmup 3] [--duration 5] [--trace-seconds 3] [--no-trace] [--out DIR]
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { SCENARIOS, statusesAsExpected } from './scenarios.mjs';
import { CLK_TCK, readMem, readUsage, resetPeakRss, schedNs, sleep, usageDelta } from './sys.mjs';
import { median } from './harness/stats.mjs';
import { startBenchServer } from './servers.mjs';
import {
  BENCH,
  fileStamp,
  int,
  parseFlags,
  prepareServerBench,
  r2,
  runMeta,
  stopAll,
  stopServer,
  waitQuietMachine,
  writeResults,
  wrkScenario,
} from './harness/index.mjs';

const opts = {
  servers: ['raw', 'fastify', 'api'],
  scenarios: ['info', 'movies'],
  rounds: 2,
  warmup: 3,
  duration: 5,
  traceSeconds: 3,
  trace: true,
  build: true,
  out: join(BENCH, 'results'),
  ...parseFlags(process.argv.slice(2), {
    '--servers': ['servers', 'list'],
    '--scenarios': ['scenarios', 'list'],
    '--rounds': ['rounds', 'number'],
    '--warmup': ['warmup', 'number'],
    '--duration': ['duration', 'number'],
    '--trace-seconds': ['traceSeconds', 'number'],
    '--no-trace': ['trace', false],
    '--no-build': ['build', false],
    '--out': ['out', 'string'],
  }),
};

/** The syscalls counted one by one (the rest are summed as `other`). */
const SYSCALLS = [
  'read',
  'write',
  'writev',
  'epoll_wait',
  'epoll_pwait',
  'epoll_ctl',
  'futex',
  'mmap',
  'munmap',
  'madvise',
  'mprotect',
];
const PERF_EVENTS = [
  'raw_syscalls:sys_enter',
  ...SYSCALLS.map((s) => `syscalls:sys_enter_${s}`),
  'net:net_dev_xmit',
  'context-switches',
  'page-faults',
];

/** How syscalls are counted here: `perf` (tracepoints), `strace`, or null. */
function tracer() {
  if (!opts.trace) return null;
  const perf = spawnSync('perf', ['stat', '-x,', '-e', PERF_EVENTS.join(','), 'true'], { encoding: 'utf8' });
  if (perf.status === 0 && !/not supported|<not counted>/.test(perf.stderr)) return 'perf';
  if (spawnSync('strace', ['-V']).status === 0) return 'strace';
  return null;
}

/** Attaches the tracer to `pid` (all threads); `stop()` resolves with counts by name. */
function attach(kind, pid) {
  const args =
    kind === 'perf'
      ? ['stat', '-x,', '-e', PERF_EVENTS.join(','), '-p', String(pid)]
      : ['-c', '-f', '-p', String(pid)];
  const child = spawn(kind, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    stop: async () => {
      child.kill('SIGINT');
      await exited;
      return kind === 'perf' ? parsePerf(err) : parseStrace(err);
    },
  };
}

/** `perf stat -x,` lines → `{ syscalls, <syscall>…, packets, contextSwitches, pageFaults }`. */
function parsePerf(text) {
  const counts = {};
  for (const line of text.split('\n')) {
    const [value, , event] = line.split(',');
    if (event === undefined || !/^\d+$/.test(value)) continue;
    if (event === 'raw_syscalls:sys_enter') counts.syscalls = Number(value);
    else if (event.startsWith('syscalls:sys_enter_')) counts[event.slice(19)] = Number(value);
    else if (event === 'net:net_dev_xmit') counts.packets = Number(value);
    else if (event === 'context-switches') counts.contextSwitches = Number(value);
    else if (event === 'page-faults') counts.pageFaults = Number(value);
  }
  return counts;
}

/** `strace -c -f` summary → `{ syscalls, <syscall>… }`. */
function parseStrace(text) {
  const counts = { syscalls: 0 };
  for (const line of text.split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line);
    if (!m) continue;
    counts[m[2]] = Number(m[1]);
    counts.syscalls += Number(m[1]);
  }
  return counts;
}

/** Counts `--trace-gc` lines from a server's stdout: scavenges, full GCs, their pause ms. */
function gcCounter(child) {
  const c = { scavenges: 0, fullGcs: 0, pauseMs: 0, lastHeapMb: NaN };
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d;
    const lines = buf.split('\n');
    buf = lines.pop();
    for (const line of lines) {
      const m =
        /: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact)\b.*?-> ([\d.]+) \([\d.]+\) MB, ([\d.]+) \//.exec(
          line,
        );
      if (!m) continue;
      if (m[1] === 'Scavenge' || m[1] === 'Minor Mark-Compact') c.scavenges++;
      else c.fullGcs++;
      c.pauseMs += Number(m[3]);
      c.lastHeapMb = Number(m[2]);
    }
  });
  return c;
}

const load = (server, scenario, seconds) => wrkScenario(server, scenario, seconds);

async function measureOne(name, scenario, kind) {
  const server = await startBenchServer(name, { nodeArgs: ['--trace-gc'] });
  const gc = gcCounter(server.child);
  try {
    await load(server, scenario, opts.warmup);
    const quiet = await waitQuietMachine([server.pid], 30_000);
    resetPeakRss(server.pid);
    const u0 = readUsage(server.pid);
    const ns0 = schedNs(server.pid);
    const gc0 = { ...gc };
    const w = await load(server, scenario, opts.duration);
    const d = usageDelta(u0, readUsage(server.pid));
    const cpuNs = schedNs(server.pid) - ns0;
    const mem = readMem(server.pid);
    const n = w.requests;
    const ticks = d.utime + d.stime;
    const row = {
      server: name,
      scenario: scenario.name,
      quiet: quiet.quiet,
      requests: n,
      rps: n / (w.duration_us / 1e6),
      cpuUs: cpuNs / 1e3 / n,
      userUs: ticks > 0 ? ((cpuNs / 1e3) * (d.utime / ticks)) / n : NaN,
      sysUs: ticks > 0 ? ((cpuNs / 1e3) * (d.stime / ticks)) / n : NaN,
      readCalls: d.syscr / n,
      writeCalls: d.syscw / n,
      bytesOut: d.wchar / n,
      bytesIn: d.rchar / n,
      voluntarySwitches: d.vcsw / n,
      involuntarySwitches: d.ivcsw / n,
      minorFaults: d.minflt / n,
      scavengesPer1k: ((gc.scavenges - gc0.scavenges) * 1000) / n,
      fullGcsPer1k: ((gc.fullGcs - gc0.fullGcs) * 1000) / n,
      gcPauseUs: ((gc.pauseMs - gc0.pauseMs) * 1000) / n,
      heapMb: gc.lastHeapMb,
      rssMb: mem.rssKb / 1024,
      peakRssMb: mem.hwmKb / 1024,
      statusOk: statusesAsExpected(scenario, w),
    };
    if (kind) {
      const t = attach(kind, server.pid);
      await sleep(300); // perf/strace attach to every thread
      const wt = await load(server, scenario, opts.traceSeconds);
      const counts = await t.stop();
      const nt = wt.requests;
      row.tracer = kind;
      row.traced = Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / nt]));
    }
    return row;
  } finally {
    await stopServer(server);
  }
}

const perReq = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

function markdown(meta, rows) {
  const L = [`# What explains the CPU per request (${meta.date})`, ''];
  L.push(
    `Node ${meta.node}, ${meta.cpu}. Per server and scenario, ${opts.rounds} round(s) of a fresh process (core 0, ` +
      `\`--trace-gc\`): ${opts.warmup} s warm-up, a clean ${opts.duration} s wrk run (-t1 -c50, core 1) measured ` +
      `from /proc, then a ${opts.traceSeconds} s run with ${meta.tracer ? `\`${meta.tracer}\`` : 'no tracer'} attached for ` +
      'syscalls by type. Medians over rounds. CPU split: exact CPU time (schedstat) divided in the user/system ' +
      'proportion of the tick counters; system time includes the loopback delivery of the responses (softirq ' +
      "run in the server's context).",
    '',
  );
  for (const sc of meta.scenarios) {
    const mine = rows.filter((r) => r.scenario === sc);
    if (mine.length === 0) continue;
    L.push(`## ${sc}: ${SCENARIOS.find((s) => s.name === sc).label}`, '');
    L.push(
      '| server | req/s | CPU µs/req | user µs | system µs | read calls | write calls | bytes out | bytes in | ctx switches (vol/invol) | minor faults | scavenges /1k | full GCs /1k | GC pause µs/req | heap MB | RSS MB (peak) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const name of meta.servers) {
      const rs = mine.filter((r) => r.server === name);
      if (rs.length === 0) continue;
      const m = (k) => median(rs.map((r) => r[k]));
      L.push(
        `| ${name} | ${int(m('rps'))} | ${perReq(m('cpuUs'), 1)} | ${perReq(m('userUs'), 1)} | ${perReq(m('sysUs'), 1)} | ` +
          `${perReq(m('readCalls'))} | ${perReq(m('writeCalls'))} | ${int(m('bytesOut'))} | ${int(m('bytesIn'))} | ` +
          `${perReq(m('voluntarySwitches'), 3)} / ${perReq(m('involuntarySwitches'), 3)} | ${perReq(m('minorFaults'), 3)} | ` +
          `${perReq(m('scavengesPer1k'))} | ${perReq(m('fullGcsPer1k'), 3)} | ${perReq(m('gcPauseUs'))} | ${perReq(m('heapMb'), 1)} | ` +
          `${perReq(m('rssMb'), 1)} (${perReq(m('peakRssMb'), 1)}) |`,
      );
    }
    L.push('');
    if (meta.tracer) {
      const keys = ['syscalls', ...SYSCALLS, 'packets', 'contextSwitches', 'pageFaults'].filter((k) =>
        mine.some((r) => r.traced?.[k] > 0),
      );
      L.push(
        `Per request, with \`${meta.tracer}\` attached (its own cost makes the server slower, so more requests wait per wake-up):`,
        '',
      );
      L.push(`| server | ${keys.join(' | ')} |`, `|---|${keys.map(() => '---:').join('|')}|`);
      for (const name of meta.servers) {
        const rs = mine.filter((r) => r.server === name && r.traced);
        if (rs.length === 0) continue;
        L.push(
          `| ${name} | ${keys.map((k) => perReq(median(rs.map((r) => r.traced[k] ?? 0)), 3)).join(' | ')} |`,
        );
      }
      L.push('');
    }
  }
  const unquiet = rows.filter((r) => !r.quiet).length;
  if (unquiet)
    L.push(`- ${unquiet} run(s) started on a busy machine (waited 30 s): their CPU times are suspect.`, '');
  return L.join('\n');
}

async function main() {
  prepareServerBench({ build: opts.build });
  const kind = tracer();
  const loadBefore = os.loadavg();
  const rows = [];
  for (const sc of opts.scenarios) {
    const scenario = SCENARIOS.find((s) => s.name === sc);
    if (!scenario) throw new Error(`unknown scenario ${sc}`);
    for (let round = 0; round < opts.rounds; round++) {
      const order = round % 2 === 0 ? opts.servers : [...opts.servers].reverse();
      for (const name of order) {
        const row = { round, ...(await measureOne(name, scenario, kind)) };
        rows.push(row);
        console.log(
          `${sc} r${round + 1} ${name.padEnd(8)} ${int(row.rps).padStart(7)} req/s  cpu ${row.cpuUs.toFixed(1)} µs (user ${row.userUs.toFixed(1)}, sys ${row.sysUs.toFixed(1)})  ` +
            `r/w calls ${row.readCalls.toFixed(2)}/${row.writeCalls.toFixed(2)}  out ${Math.round(row.bytesOut)} B  ` +
            `scavenges/1k ${row.scavengesPer1k.toFixed(1)}  gc ${row.gcPauseUs.toFixed(2)} µs/req` +
            (row.traced ? `  syscalls ${row.traced.syscalls?.toFixed(2)}` : '') +
            (row.statusOk ? '' : '  [unexpected status]'),
        );
      }
    }
  }
  const meta = {
    ...runMeta(loadBefore),
    tracer: kind,
    servers: opts.servers,
    scenarios: opts.scenarios,
    clkTck: CLK_TCK,
    options: opts,
  };
  const base = join(opts.out, `explain-${fileStamp(meta.date)}`);
  writeResults(base, { meta, rows }, markdown(meta, rows));
  console.log(`wrote ${base}.md`);
}

main().catch((e) => {
  stopAll();
  console.error(e.stack ?? e);
  process.exit(1);
});
