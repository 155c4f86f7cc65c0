// A throwaway `redis-server` for the tests that need a real one (BullMQ, the ws backplane, traces
// across processes). CI (`.ci/run` → scripts/system-deps.mjs) installs Debian's package.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Where `redis-server` is, or undefined. */
export const redisServer: string | undefined = (() => {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
})();

/**
 * Skip Redis tests only on a developer machine without `redis-server`; in CI a missing server is a
 * failure, not a skip.
 */
export const skipRedis = redisServer === undefined && process.env.CI === undefined;
if (skipRedis) console.warn('redis-server not found: the tests that need a real Redis are skipped');

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A running `redis-server`. */
export interface RedisHandle {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGKILL: an outage, not a clean shutdown). */
  stop(): Promise<void>;
}

/**
 * Starts a `redis-server` with no persistence on `port` (default: a free one); resolves once it
 * accepts connections.
 */
export async function startRedis(port?: number): Promise<RedisHandle> {
  if (redisServer === undefined)
    throw new Error('redis-server is not installed (CI installs it: apt-get install redis-server)');
  const p = port ?? (await freePort());
  const child: ChildProcess = spawn(
    redisServer,
    ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not be started: ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${out}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.stdout!.resume();
  return {
    port: p,
    url: `redis://127.0.0.1:${p}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
