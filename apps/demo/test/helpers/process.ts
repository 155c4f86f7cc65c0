// The demo in its own Node process, from a bundle built the way `pnpm build` builds dist/main.js
// (tsup.config.ts: src/main.ts, dependencies external, names kept), placed one level below
// apps/demo like dist/. By default the workspace packages it imports are loaded from their sources
// (the `@api/source` condition, through tsx), so the test does not depend on every package's dist
// being built; `{ packages: 'dist' }` runs it as `pnpm start` does, on the packages' builds.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Options } from 'tsup';
import demoBuild from '../../tsup.config';

const DEMO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Builds src/main.ts into `apps/demo/<dir>/main.js` with tsup.config.ts (as `pnpm build` does); returns the file's path. */
export async function buildDemo(dir: string): Promise<string> {
  const outDir = `${DEMO_ROOT}${dir}`;
  await build({
    ...(demoBuild as Options),
    config: false,
    entry: { main: `${DEMO_ROOT}src/main.ts` },
    outDir,
    clean: true,
    sourcemap: false,
    silent: true,
  });
  return `${outDir}/main.js`;
}

export function removeBuild(dir: string): void {
  rmSync(`${DEMO_ROOT}${dir}`, { recursive: true, force: true });
}

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export interface DemoProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The messages logged so far: the `msg` of each JSON line (the demo logs pino JSON when stdout is a pipe). */
  messages(): string[];
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  kill(): Promise<void>;
}

/**
 * Starts `node <main.js>` with `env` (PORT=0, DEMO_DB=:memory: unless given), from another
 * working directory (the OS temp dir), and resolves once it logs its URL. `packages: 'dist'` loads
 * the workspace packages from their built `dist/` (plain `node`, as `pnpm start`).
 */
export async function startDemoProcess(
  main: string,
  env: Record<string, string> = {},
  { packages = 'source' }: { readonly packages?: 'source' | 'dist' } = {},
): Promise<DemoProcess> {
  const loader = packages === 'source' ? ['--conditions=@api/source', '--import', TSX] : [];
  const child = spawn(process.execPath, [...loader, main], {
    cwd: tmpdir(),
    env: { ...process.env, PORT: '0', DEMO_DB: ':memory:', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start within 30 s:\n${out}`)), 30_000);
    const check = (): void => {
      const match = /DemoApp listening on (http:\/\/[^\s"]+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    child,
    url,
    output: () => out,
    messages: () => messagesOf(out),
    exited,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The `msg` of every JSON log line in `output` (other lines, e.g. a console exporter's, skipped). */
export function messagesOf(output: string): string[] {
  const messages: string[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const parsed = JSON.parse(line) as { msg?: unknown };
      if (typeof parsed.msg === 'string') messages.push(parsed.msg);
    } catch {
      // Not a log line.
    }
  }
  return messages;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RedisServer {
  readonly url: string;
  /** SIGKILL: an outage, not a clean shutdown. */
  stop(): Promise<void>;
}

/** `redis-server --port <free> --bind 127.0.0.1 --save ''` (Debian's redis-server); resolves once it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not be started (apt-get install redis-server): ${error.message}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
