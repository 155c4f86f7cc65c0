// The head every side-by-side server bench repeats (rate-limit.mjs, ndjson.mjs): the common options
// (rounds, duration, warmup, connections, servers, build, out), one timed wrk run with the server's
// CPU per request from /proc, the warmup and interleaved rounds with a quiet-machine check and one
// console line per sample, and the child/main entry. A bench keeps its own servers, checks, tables.
import { join } from 'node:path';
import { CLK_TCK, readMem, readProcTicks, resetPeakRss, sleep } from '../sys.mjs';
import { median } from './stats.mjs';
import { int } from './results.mjs';
import { rotated, waitQuietMachine } from './load.mjs';
import { socketErrors, wrk } from './processes.mjs';
import { BENCH, parseFlags } from './setup.mjs';

/**
 * The options of a side-by-side bench: `--rounds 5 --duration 4 --warmup 2 --connections 50
 * --servers a,b --no-build --out DIR`, then the bench's own `flags` over its own `defaults`.
 *
 * @param {string[]} argv - process.argv.slice(2)
 * @param {{ servers: string[], defaults?: object, flags?: object }} bench
 */
export function sideBySideArgs(argv, { servers, defaults = {}, flags = {} }) {
  return {
    rounds: 5,
    duration: 4,
    warmup: 2,
    connections: 50,
    servers,
    build: true,
    out: join(BENCH, 'results'),
    ...defaults,
    ...parseFlags(argv, {
      '--rounds': ['rounds', 'number'],
      '--duration': ['duration', 'number'],
      '--warmup': ['warmup', 'number'],
      '--connections': ['connections', 'number'],
      '--servers': ['servers', 'list'],
      '--no-build': ['build', false],
      '--out': ['out', 'string'],
      ...flags,
    }),
  };
}

/**
 * One timed wrk run against a server: requests, req/s, the server's CPU µs per request and
 * utilisation (from /proc), p50/p99, peak RSS, errors; `seconds` and `bytes` for a bench's own rates.
 *
 * @param {{ name: string, pid: number }} server
 * @param {{ url: string, seconds: number, connections: number, timeout?: string }} run
 */
export async function timedWrk(server, run) {
  resetPeakRss(server.pid);
  const before = readProcTicks(server.pid).self;
  const w = await wrk(run);
  const ticks = readProcTicks(server.pid).self - before;
  const seconds = w.duration_us / 1e6;
  return {
    server: server.name,
    requests: w.requests,
    seconds,
    bytes: w.bytes,
    rps: w.requests / seconds,
    cpuUsPerReq: ((ticks / CLK_TCK) * 1e6) / w.requests,
    cpuUtil: ticks / CLK_TCK / seconds,
    p50Us: w.latency_us.p50,
    p99Us: w.latency_us.p99,
    peakRssKb: readMem(server.pid).hwmKb,
    errors: w.errors.status + socketErrors(w),
  };
}

/**
 * Warms every server up, then runs `opts.rounds` interleaved rounds (each started on a quiet
 * machine when it gets quiet within `quietWaitMs`), printing one line per sample.
 *
 * @param {{
 *   servers: { name: string, pid: number }[],
 *   opts: { rounds: number, warmup: number },
 *   warm: (server, seconds) => Promise<unknown>,
 *   timed: (server) => Promise<object>,
 *   line: (sample) => string,
 *   quietWaitMs?: number,
 * }} run
 * @returns the samples, in order
 */
export async function sideBySideRounds({ servers, opts, warm, timed, line, quietWaitMs }) {
  for (const s of servers) await warm(s, opts.warmup);
  const samples = [];
  for (let round = 0; round < opts.rounds; round++) {
    for (const s of rotated(servers, round)) {
      const machine = await waitQuietMachine(
        servers.map((x) => x.pid),
        quietWaitMs,
      );
      const sample = {
        round,
        quietBefore: machine.quiet,
        otherLoadBefore: machine.other,
        ...(await timed(s)),
      };
      samples.push(sample);
      console.log(
        `r${round + 1} ${line(sample)}  cpu ${sample.cpuUsPerReq.toFixed(1)} µs/req (${(sample.cpuUtil * 100).toFixed(0)}%)` +
          `  p99 ${(sample.p99Us / 1000).toFixed(2)} ms` +
          (sample.errors ? `  [errors ${sample.errors}]` : '') +
          (sample.quietBefore
            ? ''
            : `  [machine busy before: ${(sample.otherLoadBefore * 100).toFixed(0)}%]`),
      );
      await sleep(200);
    }
  }
  return samples;
}

/** `req/s` padded for a sample line. */
export const rpsText = (sample) => `${int(sample.rps).padStart(7)} req/s`;

/**
 * The entry of a bench script that is also its own server: `--child <name>` starts that server
 * (then prints `ready`), anything else runs `main`.
 *
 * @param {(name: string, port: number) => Promise<void>} child
 * @param {() => Promise<void>} main
 */
export async function childOrMain(child, main) {
  if (process.argv[2] === '--child') {
    await child(process.argv[3], Number(process.env.PORT));
    console.log('ready');
  } else await main();
}

/**
 * One row per server from its timed samples: median req/s, CPU µs per request and p99, the
 * highest peak RSS, errors summed.
 *
 * @param {{ name: string }[]} servers
 * @param {ReturnType<typeof timedWrk> extends Promise<infer S> ? S[] : never} samples
 */
export function medianRows(servers, samples) {
  return servers.map((s) => {
    const mine = samples.filter((x) => x.server === s.name);
    return {
      server: s.name,
      rps: median(mine.map((x) => x.rps)),
      cpuUsPerReq: median(mine.map((x) => x.cpuUsPerReq)),
      p99Us: median(mine.map((x) => x.p99Us)),
      peakRssKb: Math.max(...mine.map((x) => x.peakRssKb)),
      errors: mine.reduce((t, x) => t + x.errors, 0),
    };
  });
}
