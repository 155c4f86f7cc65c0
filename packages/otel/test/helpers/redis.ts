import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Where `redis-server` is, or undefined. CI (`.ci/run`) installs Debian's package. */
export const redisServer: string | undefined = (() => {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
})();

/**
 * Skip Redis tests only on a developer machine without `redis-server`; in CI a missing server is a
 * failure, not a skip.
 */
export const skipRedis = redisServer === undefined && process.env.CI === undefined;
if (skipRedis) console.warn('@api/otel: redis-server not found; the BullMQ trace tests are skipped');

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RedisHandle {
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts a throwaway `redis-server` (no persistence) on a free port; resolves once it accepts connections. */
export async function startRedis(): Promise<RedisHandle> {
  if (redisServer === undefined)
    throw new Error(
      'redis-server is not installed (CI installs it in .ci/run: apt-get install redis-server)',
    );
  const port = await freePort();
  const child: ChildProcess = spawn(
    redisServer,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
  child.stdout!.resume();
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
