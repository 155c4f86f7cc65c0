// Where the bench runs and how it is set up: paths, the two pinned cores, command-line options,
// and the prerequisites (Linux with 2 cores, wrk, a fresh build of the packages under test).
import { execFileSync, spawnSync } from 'node:child_process';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { has } from '../sys.mjs';

/** The bench package's folder, and the repository's. */
export const BENCH = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const ROOT = join(BENCH, '..');
/** Servers run on core 0; wrk, load clients and the harness on core 1. */
export const SERVER_CORE = '0';
export const LOAD_CORE = '1';

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

/** Throws unless this is Linux (the harness reads /proc) with at least 2 cores (one pinned each side). */
export function requireLinuxTwoCores() {
  if (os.platform() !== 'linux') throw new Error('the harness reads /proc: Linux only');
  if (os.cpus().length < 2)
    throw new Error('needs 2 cores (servers on core 0, wrk and the harness on core 1)');
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

/**
 * What every script that times servers under wrk does first: Linux with 2 cores, wrk present, this
 * process pinned to the load core, and (unless `build: false`) a fresh build of the @api packages
 * the bench servers import.
 */
export function prepareServerBench({ build = true } = {}) {
  requireLinuxTwoCores();
  ensureWrk();
  pinSelf();
  if (build) turboBuild(['@api/bench^...'], 'the @api packages');
}
