// The servers a bench run can start (files in servers/), and the runtime each runs on: Node (this
// process's binary) or the pinned Bun of scripts/runtimes (found the way `pnpm test:runtimes` does).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, SETTLE_MS, freePort, startServer } from './harness/index.mjs';
import { binary, bundleWorker, workerdConfig } from '../../scripts/runtimes/targets.mjs';

/** The framework servers of `pnpm bench` (Node, node:http underneath). */
export const FRAMEWORK_SERVERS = ['raw', 'fastify', 'hono', 'express', 'api'];

/** Servers that run on Bun (`Bun.serve`); every other one runs on Node (or Deno, below). */
export const BUN_SERVERS = ['bun-api', 'bun-hono', 'bun-elysia'];

/** Servers that run on Deno (`Deno.serve`), with every permission (`run -A`). */
export const DENO_SERVERS = ['deno-api', 'deno-hono'];

/**
 * Servers that are Worker modules for workerd (the pinned binary of scripts/runtimes): bundled
 * with esbuild and served by `workerd serve` (one isolate, its own HTTP server).
 */
export const WORKERD_SERVERS = ['workerd-api', 'workerd-hono'];

/** The runtime binary a server runs on: `{ path, args? }` (args before the script), or `{ why }` when this machine has none. */
export function runtimeOf(name) {
  if (BUN_SERVERS.includes(name)) return binary('bun');
  if (WORKERD_SERVERS.includes(name)) return binary('workerd');
  if (DENO_SERVERS.includes(name)) {
    const deno = binary('deno');
    return deno.path ? { ...deno, args: ['run', '-A', '--no-lock'] } : deno;
  }
  return { path: process.execPath };
}

/**
 * Starts `servers/<name>.mjs` pinned to the server core on its runtime; resolves once it is ready
 * and has sat idle for `SETTLE_MS`, as a deployed server does before its first request. The one
 * way every timing script starts a framework server. `options`: `label` (for messages; default
 * `name`), `nodeArgs`, `port`.
 */
export async function startBenchServer(name, { label = name, nodeArgs, port } = {}) {
  const rt = runtimeOf(name);
  if (!rt.path) throw new Error(rt.why);
  if (WORKERD_SERVERS.includes(name)) return startWorkerd(name, rt.path, label, port);
  return startServer({
    name: label,
    script: join(BENCH, 'servers', `${name}.mjs`),
    env: { HOST: '127.0.0.1' },
    exec: rt.path,
    nodeArgs: [...(rt.args ?? []), ...(nodeArgs ?? [])],
    port,
    settleMs: SETTLE_MS,
  });
}

/** Bundles of this process's run (a Worker module is bundled once, then served many times). */
const bundled = new Map();

/**
 * `servers/<name>.mjs` as a Worker module on workerd, pinned like every server: bundled once per
 * run (into bench/.work/workerd), then `workerd serve` on a free port. The module prints `ready`
 * when workerd loads it (just before its socket listens; the settle covers the gap).
 */
async function startWorkerd(name, workerd, label, port) {
  const dir = join(BENCH, '.work', 'workerd');
  if (!bundled.has(name)) {
    mkdirSync(dir, { recursive: true });
    await bundleWorker({
      entry: join(BENCH, 'servers', `${name}.mjs`),
      outfile: join(dir, `${name}.js`),
      // A Worker module has no file URL: api.mjs's "run as a script?" test must read as "no".
      define: { 'import.meta.url': JSON.stringify(`file:///${name}.js`) },
    });
    writeFileSync(join(dir, `${name}.capnp`), workerdConfig(`${name}.js`, '127.0.0.1:0'));
    bundled.set(name, true);
  }
  const listen = port ?? (await freePort());
  return startServer({
    name: label,
    exec: workerd,
    nodeArgs: ['serve'],
    script: join(dir, `${name}.capnp`),
    args: ['--socket-addr', `http=127.0.0.1:${listen}`],
    port: listen,
    settleMs: SETTLE_MS,
  });
}
