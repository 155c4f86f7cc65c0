// Processes under test and the load on them: servers that print `ready` (pinned to the server
// core, killed when the harness exits), commands to them over IPC, and wrk runs through src/wrk.lua
// (pinned to the load core).
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BENCH, LOAD_CORE, SERVER_CORE } from './setup.mjs';

const WRK_LUA = join(BENCH, 'src/wrk.lua');

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

/** Kills one server started here; resolves once it has exited. */
export function stopServer(server) {
  if (!running.has(server)) return Promise.resolve();
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  process.kill(server.pid, 'SIGKILL');
  return exited;
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
 * How long a framework server sits idle after it prints `ready`, before its first request: as a
 * server does in production, or when a user starts it and then runs a load tool (issue 27).
 * Measured 2026-11-26: a Fastify process loaded the moment it is ready races into, or often
 * skips, a slow state it otherwise enters for life — V8's first full GC, whose incremental marking
 * starts during Fastify's allocation-heavy boot, then finishes while the process is idle, and
 * after it Node's `process.nextTick` takes ~11% of Fastify's busy time on `GET /info` instead of
 * ~1% (CPU per request ~+20%). Every one of 13 processes with 0.3 to 10 s of idle after `ready`
 * entered it, as did 8 of 8 paired-phase processes, against 0 of 8 and 2 of 3 in two tries loaded
 * at once; with `--no-incremental-marking` it does not happen; raw node:http and @api show no such
 * state (src/settle.mjs). So every method waits this long, and measures the Fastify a user gets.
 */
export const SETTLE_MS = 1000;

/**
 * Starts `node [nodeArgs] script [args]` pinned to the server core (`taskset` execs node, so the
 * child's pid is node's) with `PORT`, `NODE_ENV=production` and `env`; resolves once it prints a
 * line `ready` and then `settleMs` have passed. Every server is killed when this process exits.
 *
 * @param options `name` (for messages), `script`, `args`, `nodeArgs`, `env`, `port` (default: a
 *   free one), `ipc` (a message channel, for servers driven by commands), `exec` (the runtime's
 *   binary instead of this Node, e.g. the pinned Bun), `settleMs` (idle after `ready`, default 0;
 *   framework servers get `SETTLE_MS`)
 * @returns `{ name, port, pid, child, url }`
 */
export async function startServer({
  name,
  script,
  args = [],
  nodeArgs = [],
  env = {},
  port,
  ipc = false,
  exec = process.execPath,
  settleMs = 0,
}) {
  installCleanup();
  const listen = port ?? (await freePort());
  const child = spawn('taskset', ['-c', SERVER_CORE, exec, ...nodeArgs, script, ...args], {
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
  if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
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

/**
 * Starts `script --child <kind>` (the script's own server mode) with `--expose-gc` and a message
 * channel; `ask(cmd, extra)` sends it a command (see `answerCommands`).
 *
 * @returns `{ kind, port, pid, child, ask, stats(gc) }`
 */
export async function startCommandedServer(kind, script) {
  const { port, pid, child } = await startServer({
    name: kind,
    script,
    args: ['--child', kind],
    nodeArgs: ['--expose-gc'],
    ipc: true,
  });
  const ask = ipcClient(child);
  return { kind, port, pid, child, ask, stats: (gc = false) => ask('stats', { gc }) };
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

/**
 * In a server started by `startCommandedServer`: answers `stats` (memory after an optional gc,
 * plus `stats()`'s fields), `exit` (a normal exit, so `--cpu-prof` writes its profile), and every
 * other command through `handlers[cmd](msg, reply)`.
 */
export function answerCommands({ stats, ...handlers }) {
  process.on('message', (msg) => {
    const reply = (answer = {}) => process.send({ id: msg.id, ...answer });
    if (msg.cmd === 'stats') reply({ ...memoryStats(msg.gc), ...stats() });
    else if (msg.cmd === 'exit') process.exit(0);
    else handlers[msg.cmd]?.(msg, reply);
  });
}

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
export function wrk(options) {
  return startWrk(options).done;
}

/**
 * `wrk` without waiting: `{ pid, done, interrupt }`. `interrupt()` ends the run early (SIGINT:
 * wrk stops its connections and still prints its summary); `done` resolves with the summary.
 */
export function startWrk({ url, seconds, connections = 50, timeout, headers = [], ...request }) {
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
  const done = new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    // 'close', not 'exit': a process can exit before its stdout has been read to the end, and the
    // summary is the last thing wrk writes (waiting for 'exit' lost it now and then).
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('WRKJSON '));
      if (code !== 0 || !line) reject(new Error(`wrk failed (${code}): ${err || out}`));
      else resolve(JSON.parse(line.slice(8)));
    });
  });
  const interrupt = () => {
    try {
      child.kill('SIGINT');
    } catch {
      /* already gone */
    }
  };
  return { pid: child.pid, done, interrupt };
}

/** Connect, read, write and timeout errors of a wrk summary. */
export const socketErrors = (w) => w.errors.connect + w.errors.read + w.errors.write + w.errors.timeout;

/** `wrk`'s options for one run of a scenario (src/scenarios.mjs) against a started server, 5 s request timeout. */
const scenarioRun = (server, scenario, seconds, connections) => ({
  url: server.url + scenario.path,
  seconds,
  connections,
  timeout: '5s',
  method: scenario.method,
  body: scenario.body,
  auth: scenario.auth,
});

/**
 * One wrk run of a scenario (src/scenarios.mjs: `path`, `method`, `body`, `auth`) against a started
 * server, with a 5 s request timeout.
 *
 * @param server a started bench server (`url`)
 * @param scenario the scenario to load
 * @param seconds how long
 * @param connections wrk connections (default 50)
 */
export function wrkScenario(server, scenario, seconds, connections) {
  return wrk(scenarioRun(server, scenario, seconds, connections));
}

/** `wrkScenario` without waiting: `startWrk`'s `{ pid, done, interrupt }`. */
export function startWrkScenario(server, scenario, seconds, connections) {
  return startWrk(scenarioRun(server, scenario, seconds, connections));
}

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
