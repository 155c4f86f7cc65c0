// The servers a bench run can start (files in servers/), and the runtime each runs on: Node (this
// process's binary) or the pinned Bun of scripts/runtimes (found the way `pnpm test:runtimes` does).
import { join } from 'node:path';
import { BENCH, SETTLE_MS, startServer } from './harness/index.mjs';
import { binary } from '../../scripts/runtimes/targets.mjs';

/** The framework servers of `pnpm bench` (Node, node:http underneath). */
export const FRAMEWORK_SERVERS = ['raw', 'fastify', 'hono', 'express', 'api'];

/** Servers that run on Bun (`Bun.serve`); every other one runs on Node (or Deno, below). */
export const BUN_SERVERS = ['bun-api', 'bun-hono', 'bun-elysia'];

/** Servers that run on Deno (`Deno.serve`), with every permission (`run -A`). */
export const DENO_SERVERS = ['deno-api', 'deno-hono'];

/** The runtime binary a server runs on: `{ path, args? }` (args before the script), or `{ why }` when this machine has none. */
export function runtimeOf(name) {
  if (BUN_SERVERS.includes(name)) return binary('bun');
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
export function startBenchServer(name, { label = name, nodeArgs, port } = {}) {
  const rt = runtimeOf(name);
  if (!rt.path) return Promise.reject(new Error(rt.why));
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
