// The runtimes `pnpm test:runtimes` runs the wire suite on, and how each starts its server. Every
// binary comes from an npm package pinned in the lockfile (scripts/runtimes/package.json); none is
// downloaded at run time, and their install scripts never run (pnpm-workspace.yaml).
import { spawn } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, '..', '..');
const require = createRequire(join(here, 'package.json'));

/** A platform package's file, resolved from the wrapper package that lists it as optional. */
function fromPlatformPackage(wrapper, platformPackage, file) {
  try {
    const wrapperRequire = createRequire(require.resolve(`${wrapper}/package.json`));
    const path = join(dirname(wrapperRequire.resolve(`${platformPackage}/package.json`)), file);
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

const linuxX64 = process.platform === 'linux' && process.arch === 'x64';

/** Where each runtime's binary is, or undefined (with the reason) when this machine has none. */
export function binary(runtime) {
  if (!linuxX64)
    return { why: `no pinned ${runtime} binary for ${process.platform}-${process.arch} (linux-x64 only)` };
  const path = {
    node20: process.execPath,
    node22: (() => {
      try {
        return join(dirname(require.resolve('node22/package.json')), 'bin', 'node');
      } catch {
        return undefined;
      }
    })(),
    node24: (() => {
      try {
        return join(dirname(require.resolve('node24/package.json')), 'bin', 'node');
      } catch {
        return undefined;
      }
    })(),
    bun: fromPlatformPackage('bun', '@oven/bun-linux-x64', 'bin/bun'),
    deno: fromPlatformPackage('deno', '@deno/linux-x64-glibc', 'deno'),
    workerd: fromPlatformPackage('workerd', '@cloudflare/workerd-linux-64', 'bin/workerd'),
  }[runtime];
  return path && existsSync(path) ? { path } : { why: `${runtime} is not installed (pnpm install)` };
}

const TSX = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href;
const NODE_SOURCE = ['--conditions=@api/source', '--import', TSX];
const DENO = ['run', '-A', '--sloppy-imports', '--conditions=@api/source', '--no-lock'];

/**
 * The targets, in the order they run. `kind`: `demo` serves the demo with `serve()` (node:http or
 * the runtime's node:http layer: the whole wire suite); `fetch` serves the fetch app through
 * `app.fetch` on the runtime's own server.
 */
export const targets = [
  { name: 'node20', runtime: 'node20', kind: 'demo', args: [...NODE_SOURCE, 'server/demo-server.ts'] },
  { name: 'node22', runtime: 'node22', kind: 'demo', args: [...NODE_SOURCE, 'server/demo-server.ts'] },
  { name: 'node24', runtime: 'node24', kind: 'demo', args: [...NODE_SOURCE, 'server/demo-server.ts'] },
  { name: 'bun', runtime: 'bun', kind: 'demo', args: ['--conditions=@api/source', 'server/demo-server.ts'] },
  { name: 'deno', runtime: 'deno', kind: 'demo', args: [...DENO, 'server/demo-server.ts'] },
  {
    name: 'bun-fetch',
    runtime: 'bun',
    kind: 'fetch',
    args: ['--conditions=@api/source', 'server/bun-fetch.ts'],
  },
  { name: 'deno-fetch', runtime: 'deno', kind: 'fetch', args: [...DENO, 'server/deno-fetch.ts'] },
  { name: 'workerd', runtime: 'workerd', kind: 'fetch', args: undefined },
];

/** How to run a TypeScript entry (the quickstart) under a runtime: [binary, ...args before the file]. */
export function scriptCommand(runtime) {
  const bin = binary(runtime);
  if (!bin.path) return bin;
  if (runtime.startsWith('node')) return { path: bin.path, args: NODE_SOURCE };
  if (runtime === 'bun') return { path: bin.path, args: ['--conditions=@api/source'] };
  if (runtime === 'deno') return { path: bin.path, args: DENO };
  return { why: `${runtime} runs Worker modules, not scripts` };
}

/** A free TCP port on 127.0.0.1. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `require('path')` in a CommonJS dependency (mime-types) bundled as ESM becomes a dynamic
 * require, which a Worker cannot do: resolve it to an ESM re-export of `node:path`, as wrangler
 * does for `nodejs_compat`.
 */
const requireBuiltinsAsImports = {
  name: 'require-builtins-as-imports',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (args.kind !== 'require-call' || !builtinModules.includes(name)) return undefined;
      return { path: name, namespace: 'node-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: `export * from 'node:${args.path}';`,
      loader: 'js',
    }));
  },
};

/**
 * Bundles a Worker module for workerd (esbuild, ESM, `conditions` and `define` as given) into
 * `outfile`, with a CommonJS dependency's `require('node:…')` turned into an import.
 */
export async function bundleWorker({ entry, outfile, conditions = [], define }) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    conditions,
    define,
    keepNames: true,
    logLevel: 'error',
    plugins: [requireBuiltinsAsImports],
  });
}

/**
 * workerd's config for one Worker module (`module`: its file name, next to the config) served
 * on `address` (overridable with `--socket-addr http=HOST:PORT`).
 */
export function workerdConfig(module, address) {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "${address}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "${module}", esModule = embed "${module}") ],
  compatibilityDate = "2026-11-01",
  compatibilityFlags = ["nodejs_compat", "enable_request_signal"],
);
`;
}

/** Bundles the Worker and writes workerd's config next to it; returns [args, url]. */
async function workerdSetup() {
  const out = join(here, '.build');
  mkdirSync(out, { recursive: true });
  await bundleWorker({
    entry: join(here, 'server', 'worker.ts'),
    outfile: join(out, 'worker.js'),
    conditions: ['@api/source'],
  });
  const port = await freePort();
  writeFileSync(join(out, 'config.capnp'), workerdConfig('worker.js', `127.0.0.1:${port}`));
  return { args: ['serve', join(out, 'config.capnp')], url: `http://127.0.0.1:${port}` };
}

/**
 * Starts a target's server; resolves with its URL and a `stop()` once it answers. Rejects (with
 * the server's output) when it exits or stays silent for 60 s.
 */
export async function startServer(target) {
  const bin = binary(target.runtime);
  if (!bin.path) throw new Error(`${target.name}: ${bin.why}`);
  let args = target.args;
  let fixedUrl;
  if (target.runtime === 'workerd') ({ args, url: fixedUrl } = await workerdSetup());
  const child = spawn(bin.path, args, {
    cwd: here,
    env: { ...process.env, DEMO_DB: ':memory:', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${target.name}: the server exited before it listened:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${target.name}: the server did not listen within 60 s:\n${output}`);
    }
    const ready = /READY (http:\/\/\S+)/.exec(output)?.[1];
    if (ready) return { url: ready, stop, output: () => output };
    if (fixedUrl) {
      const up = await fetch(`${fixedUrl}/_runtime/state`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return { url: fixedUrl, stop, output: () => output };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
