import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export interface FixtureProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly http: string;
  readonly ws: string;
  /** Every IPC message received so far. */
  readonly messages: Record<string, unknown>[];
  /** Resolves with the first IPC message (past or future) with this `event`. */
  event<T = Record<string, unknown>>(name: string, timeoutMs?: number): Promise<T>;
  send(message: unknown): void;
  /** Resolves with the exit code once the process exits. */
  readonly exited: Promise<number | null>;
  /** The process's resident set size now, in bytes (from /proc). */
  rss(): number;
  kill(): Promise<void>;
}

/**
 * Starts a fixture script (default `test/fixtures/server.ts`) in its own Node process (sources
 * through tsx); resolves once it reports `{event: 'ready'}`.
 */
export async function startFixture(
  env: Record<string, string> = {},
  script = 'server.ts',
  options: { nice?: number } = {},
): Promise<FixtureProcess> {
  const node = [process.execPath, '--conditions=@api/source', '--import', 'tsx', FIXTURES + script];
  // `nice` execs node: the pid stays node's.
  const [command, ...args] = options.nice ? ['nice', '-n', String(options.nice), ...node] : node;
  const child = spawn(command!, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production', ...env },
  });
  const messages: Record<string, unknown>[] = [];
  const waiters: { name: string; resolve: (m: Record<string, unknown>) => void }[] = [];
  child.on('message', (message: Record<string, unknown>) => {
    messages.push(message);
    for (const w of waiters.filter((w) => w.name === message.event)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(message);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const event = <T>(name: string, timeoutMs = 20_000): Promise<T> => {
    const seen = messages.find((m) => m.event === name);
    if (seen) return Promise.resolve(seen as T);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fixture: no "${name}" event within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiters.push({
        name,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as T);
        },
      });
    });
  };
  const ready = await Promise.race([
    event<{ port?: number }>('ready', 30_000),
    exited.then((code) => {
      throw new Error(`fixture exited with ${code} before it was ready`);
    }),
  ]);
  const http = `http://127.0.0.1:${ready.port ?? 0}`;
  return {
    child,
    port: ready.port ?? 0,
    http,
    ws: http.replace(/^http/, 'ws'),
    messages,
    event,
    send: (message) => child.send(message as never),
    exited,
    rss: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    },
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
