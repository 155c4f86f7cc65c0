// A throwaway redis-server for the rate-limit benches (rate-limit.mjs timed, instructions.mjs
// --rate-limit counted): no persistence, pinned to the load core, on a free port.
import { spawn, spawnSync } from 'node:child_process';
import { freePort, LOAD_CORE } from './harness/index.mjs';

/**
 * Starts redis-server; resolves once it accepts connections.
 *
 * @returns {Promise<{ url: string, stop: () => void }>}
 */
export async function startRedis() {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const port = await freePort();
  const child = spawn(
    'taskset',
    [
      '-c',
      LOAD_CORE,
      found.stdout.trim(),
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout.resume();
        resolve();
      }
    });
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}
