import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGKILL: an outage, not a clean shutdown). */
  stop(): Promise<void>;
}

/**
 * Starts a throwaway `redis-server` (Debian's, installed by `.ci/run`) on `port` (default: a
 * free one), with no persistence. Resolves once it accepts connections.
 */
export async function startRedis(port?: number): Promise<RedisServer> {
  const p = port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(
          `redis-server could not be started (is it installed? apt-get install redis-server): ${error.message}`,
        ),
      );
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
