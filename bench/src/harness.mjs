// What every bench script shares: paths, CPU pinning (servers on core 0; wrk, the load clients and
// the harness itself on core 1), prerequisites (Linux with 2 cores, wrk, a fresh build of the
// packages under test), server processes that print `ready`, wrk runs through src/wrk.lua,
// machine-quiet checks from /proc, interleaved rounds, and result files.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLK_TCK, has, readCpu, readProcTicks, resetPeakRss, sleep } from './sys.mjs';

/** The bench package's folder, and the repository's. */
export const BENCH = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = join(BENCH, '..');
/** Servers run on core 0; wrk, load clients and the harness on core 1. */
export const SERVER_CORE = '0';
export const LOAD_CORE = '1';
const WRK_LUA = join(BENCH, 'src/wrk.lua');

// ---------------------------------------------------------------- options
/**
 * Parses `--flag value` options. `flags` maps a flag to `[key, kind]`: kind `'number'`,
 * `'string'` or `'list'` (comma-separated) reads the next word; a function reads it and converts
 * it; any other kind is the value itself (`['build', false]` for `--no-build`). `--` is skipped;
 * an unknown option exits with code 2. Returns only the options given.
 */
export function parseFlags(argv, flags) {
  const o = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') continue;
    const flag = flags[a];
    if (!flag) {
      console.error(`unknown option ${a}`);
      process.exit(2);
    }
    const [key, kind] = flag;
    if (kind === 'number') o[key] = Number(argv[++i]);
    else if (kind === 'string') o[key] = argv[++i];
    else if (kind === 'list') o[key] = argv[++i].split(',');
    else if (typeof kind === 'function') o[key] = kind(argv[++i]);
    else o[key] = kind;
  }
  return o;
}

/** The word after `--name` in `argv`, or `fallback` (unknown words are ignored). */
export function argOf(argv, name, fallback) {
  const i = argv.indexOf(`--${name}`);
  return i === -1 ? fallback : argv[i + 1];
}

// ---------------------------------------------------------------- prerequisites
/** Throws unless this is Linux (the harness reads /proc) with at least 2 cores (one pinned each side). */
export function requireLinuxTwoCores() {
  if (os.platform() !== 'linux') throw new Error('the harness reads /proc: Linux only');
  if (os.cpus().length < 2) throw new Error('needs 2 cores (servers on core 0, wrk and the harness on core 1)');
}

/** Installs wrk with apt when it is missing; throws when that fails. */
export function ensureWrk() {
  if (has('wrk')) return;
  console.log('wrk not found: apt-get update && apt-get install -y wrk');
  const r = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y wrk'], { stdio: 'inherit' });
  if (r.status !== 0 || !has('wrk')) throw new Error('could not install wrk');
}

/** Pins this process (every thread) to `core` (default: the load core, off the servers' core). */
export function pinSelf(core = LOAD_CORE) {
  execFileSync('taskset', ['-a', '-p', '-c', core, String(process.pid)], { stdio: 'ignore' });
}

/** `pinSelf`, when taskset is there (in-process benchmarks: steadier numbers, not required). */
export function pinSelfIfPossible(core) {
  try {
    pinSelf(core);
  } catch {
    /* not pinned */
  }
}

/**
 * Builds the packages under test with turbo (never a stale `dist`: turbo caches unchanged builds).
 *
 * @param filters turbo filters, e.g. `['@api/streaming...']`
 * @param what the packages, for the log line and the error
 */
export function turboBuild(filters, what) {
  const args = filters.map((f) => `--filter=${f}`);
  console.log(`building ${what}: turbo run build ${args.join(' ')}`);
  const r = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', ...args, '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`building ${what} failed; fix the build before benchmarking`);
}

// ---------------------------------------------------------------- server processes
/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const running = new Set();
let cleanupInstalled = false;

/** Kills every server process started here that is still running. */
export function stopAll() {
  for (const s of running) {
    try {
      process.kill(s.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  running.clear();
}

function installCleanup() {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', stopAll);
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, () => {
      stopAll();
      process.exit(130);
    });
  }
}

/**
 * Starts `node [nodeArgs] script [args]` pinned to the server core (`taskset` execs node, so the
 * child's pid is node's) with `PORT`, `NODE_ENV=production` and `env`; resolves once it prints a
 * line `ready`. Every server is killed when this process exits.
 *
 * @param options `name` (for messages), `script`, `args`, `nodeArgs`, `env`, `port` (default: a
 *   free one), `ipc` (a message channel, for servers driven by commands)
 * @returns `{ name, port, pid, child, url }`
 */
export async function startServer({ name, script, args = [], nodeArgs = [], env = {}, port, ipc = false }) {
  installCleanup();
  const listen = port ?? (await freePort());
  const child = spawn('taskset', ['-c', SERVER_CORE, process.execPath, ...nodeArgs, script, ...args], {
    cwd: BENCH,
    env: { ...process.env, PORT: String(listen), NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? ['ipc'] : [])],
  });
  const s = { name, port: listen, pid: child.pid, child, url: `http://127.0.0.1:${listen}` };
  running.add(s);
  child.once('exit', () => running.delete(s));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no "ready" within 20 s`)), 20_000);
    let buf = '';
    const onData = (d) => {
      buf += d;
      if (/^ready$/m.test(buf)) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited with ${code} before "ready"`));
    };
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
  child.stdout.resume();
  return s;
}

/** Commands to a server started with `ipc`: `ask(cmd, extra)` resolves with its answer (same `id`). */
export function ipcClient(child) {
  let next = 0;
  return (cmd, extra = {}) =>
    new Promise((resolve) => {
      const id = ++next;
      const onMessage = (msg) => {
        if (msg.id !== id) return;
        child.off('message', onMessage);
        resolve(msg);
      };
      child.on('message', onMessage);
      child.send({ cmd, id, ...extra });
    });
}

/** In a server started with `--expose-gc`: heap, external and RSS bytes, after two collections when `gc`. */
export function memoryStats(gc) {
  if (gc) {
    globalThis.gc();
    globalThis.gc();
  }
  const mem = process.memoryUsage();
  return { heapUsed: mem.heapUsed, external: mem.external, rss: mem.rss };
}

// ---------------------------------------------------------------- wrk
/** The request shape src/wrk.lua reads from the environment. */
function requestEnv({ method = 'GET', body, auth }) {
  return {
    BENCH_METHOD: method,
    BENCH_BODY: body === undefined ? '' : JSON.stringify(body),
    BENCH_AUTH: auth ?? '',
  };
}

/**
 * One `wrk -t1` run pinned to the load core, with src/wrk.lua (request shape from `method`, `body`,
 * `auth`; summary as one JSON line). Resolves with that summary.
 *
 * @param options `url`, `seconds`, `connections` (default 50), `timeout` (wrk's `--timeout`, e.g.
 *   `'5s'`; default wrk's own), `headers` (`'Name: value'` lines), `method`, `body`, `auth`
 */
export function wrk({ url, seconds, connections = 50, timeout, headers = [], ...request }) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'taskset',
      [
        '-c',
        LOAD_CORE,
        'wrk',
        '-t1',
        `-c${connections}`,
        `-d${seconds}s`,
        ...(timeout ? ['--timeout', timeout] : []),
        ...headers.flatMap((h) => ['-H', h]),
        '-s',
        WRK_LUA,
        url,
      ],
      { env: { ...process.env, ...requestEnv(request) }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRKJSON '));
      if (code !== 0 || !line) reject(new Error(`wrk failed (${code}): ${err || out}`));
      else resolve(JSON.parse(line.slice(8)));
    });
  });
}

/** Connect, read, write and timeout errors of a wrk summary. */
export const socketErrors = (w) => w.errors.connect + w.errors.read + w.errors.write + w.errors.timeout;

/** wrk's version, or `n/a`. */
export function wrkVersion() {
  try {
    return spawnSync('wrk', ['-v'], { encoding: 'utf8' })
      .stdout.split('\n')[0]
      .split(' [')[0]
      .replace(/^wrk /, '');
  } catch {
    return 'n/a';
  }
}

// ---------------------------------------------------------------- machine load
/** Snapshot of everything needed to attribute CPU ticks: per-core busy, our servers, harness, children. */
export function snapshot(servers) {
  const me = readProcTicks(process.pid);
  const srv = {};
  for (const s of servers) srv[s.name] = readProcTicks(s.pid)?.self ?? 0;
  return { at: process.hrtime.bigint(), cpu: readCpu(), srv, me: me.self, kids: me.children };
}

/** Ticks on each core not explained by our processes, as a fraction of the window. */
export function otherLoad(a, b, servers) {
  const wallTicks = (Number(b.at - a.at) / 1e9) * CLK_TCK;
  const d = (core) => b.cpu[core].busy - a.cpu[core].busy;
  const serverTicks = servers.reduce((t, s) => t + (b.srv[s.name] - a.srv[s.name]), 0);
  const loadTicks = b.me - a.me + (b.kids - a.kids); // harness + finished children (wrk)
  const core0 = Math.max(0, d(SERVER_CORE) - serverTicks);
  const core1 = Math.max(0, d(LOAD_CORE) - loadTicks);
  return {
    wallTicks,
    serverTicks,
    loadTicks,
    core0: core0 / wallTicks,
    core1: core1 / wallTicks,
    irq0: (b.cpu[SERVER_CORE].irq - a.cpu[SERVER_CORE].irq) / wallTicks,
    irq1: (b.cpu[LOAD_CORE].irq - a.cpu[LOAD_CORE].irq) / wallTicks,
  };
}

/** `0.123` → `12%`. */
export const pct = (x) => `${(x * 100).toFixed(0)}%`;

/**
 * Waits until neither core carries more than `threshold` of load other than our servers' (core 0)
 * and the harness's and its children's (core 1), sampled over `sampleMs`; gives up after
 * `maxWaitMs` or once `overBudget()`. Resolves with whether the machine was quiet.
 *
 * @param servers the running servers (their ticks are ours)
 * @param options `sampleMs`, `maxWaitMs`, `threshold`, `overBudget`, `stats` (`{ checks, waitedMs, gaveUp }`, counted when given)
 */
export async function waitQuietCores(servers, { sampleMs, maxWaitMs, threshold, overBudget = () => false, stats }) {
  const start = Date.now();
  for (;;) {
    const a = snapshot(servers);
    await sleep(sampleMs);
    const l = otherLoad(a, snapshot(servers), servers);
    if (stats) stats.checks++;
    if (Math.max(l.core0, l.core1) <= threshold) {
      if (stats) stats.waitedMs += Date.now() - start;
      return true;
    }
    if (Date.now() - start > maxWaitMs || overBudget()) {
      if (stats) {
        stats.waitedMs += Date.now() - start;
        stats.gaveUp++;
      }
      return false;
    }
    console.log(`  machine busy (other load core0 ${pct(l.core0)}, core1 ${pct(l.core1)}), waiting…`);
    await sleep(1000);
  }
}

/**
 * Waits (up to `maxMs`) until both cores are quiet: busy ticks on both, minus this harness's and
 * `pids`' own, ≤ 10% over a 500 ms sample. Resolves with the last sample's other load.
 */
export async function waitQuietMachine(pids = [], maxMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const ticks = () => [process.pid, ...pids].reduce((t, pid) => t + (readProcTicks(pid)?.self ?? 0), 0);
    const a = readCpu();
    const ownA = ticks();
    const at = process.hrtime.bigint();
    await sleep(500);
    const b = readCpu();
    const own = ticks() - ownA;
    const wall = (Number(process.hrtime.bigint() - at) / 1e9) * CLK_TCK;
    const other =
      Math.max(0, b[SERVER_CORE].busy - a[SERVER_CORE].busy + b[LOAD_CORE].busy - a[LOAD_CORE].busy - own) /
      (2 * wall);
    if (other <= 0.1) return { quiet: true, other };
    if (Date.now() - started > maxMs) return { quiet: false, other };
    console.log(`  machine busy (other load ${(other * 100).toFixed(0)}% of both cores), waiting…`);
    await sleep(2000);
  }
}

/**
 * Runs `load()` (a wrk run against `server`) between two snapshots: the server's peak RSS is reset
 * first. Resolves with the wrk summary `w`, the other load `l` during it, and the server's and
 * wrk's CPU ticks.
 */
export async function measured(server, servers, load) {
  const rssReset = resetPeakRss(server.pid);
  const a = snapshot(servers);
  const w = await load();
  const b = snapshot(servers);
  return {
    w,
    l: otherLoad(a, b, servers),
    cpuTicks: b.srv[server.name] - a.srv[server.name],
    wrkTicks: b.kids - a.kids,
    rssReset,
  };
}

/** `list` rotated by `round` (interleaved rounds: a different server goes first each round). */
export const rotated = (list, round) => list.map((_, i) => list[(i + round) % list.length]);

/**
 * Interleaved rounds over `servers`: each timed sample waits for a quiet machine first, and a
 * contaminated one is retried up to `retries` times (while not `overBudget()`), then kept.
 *
 * @param options `servers`, `rounds`, `retries`, `waitQuiet()`, `measure(server)` (a sample with
 *   `contaminated`), `overBudget()`, `onRetry(server, sample)`, `onSample(sample, server)`
 * @returns every kept sample, with `round`, `attempt` and `quietBefore`
 */
export async function interleavedRounds({
  servers,
  rounds,
  retries,
  waitQuiet,
  measure,
  overBudget = () => false,
  onRetry,
  onSample,
}) {
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    for (const s of rotated(servers, round)) {
      let sample;
      for (let attempt = 0; ; attempt++) {
        const quiet = await waitQuiet();
        sample = { ...(await measure(s)), round, attempt, quietBefore: quiet };
        if (!sample.contaminated || attempt >= retries || overBudget()) break;
        onRetry(s, sample);
      }
      samples.push(sample);
      onSample(sample, s);
    }
  }
  return samples;
}

// ---------------------------------------------------------------- results
/** `2026-11-24T02:32:18.123Z` → `2026-11-24T02-32-18Z` (file names of results). */
export const fileStamp = (iso) => iso.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');

/** Writes `<base>.json` (indented, newline-terminated) and `<base>.md`, creating the folder. */
export function writeResults(base, json, md) {
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(`${base}.json`, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(`${base}.md`, md);
}

/** The installed version of package `name` (resolved from `from`, default bench/), or `n/a`. */
export function packageVersion(name, from = BENCH) {
  try {
    return JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'n/a';
  }
}

/** Two decimals, or `n/a`. */
export const r2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
/** A rounded integer with thousands separators, or `n/a`. */
export const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
/** Bytes → KiB with two decimals. */
export const kb = (bytes) => (bytes / 1024).toFixed(2);
