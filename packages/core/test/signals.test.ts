import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./child/serve-app.ts', import.meta.url));

describe('serve() and signals', () => {
  it('a second SIGINT during shutdown is noted, the in-flight request completes, the process exits 0', async () => {
    const proc = spawn(process.execPath, ['--conditions=@api/source', '--import', 'tsx', child], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no port: ${out}`)), 15_000);
      proc.stdout.on('data', () => {
        const m = /port=(\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
    const pending = fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.text());
    // Signal only once the request is in flight (a connection with no request yet is idle: closed at once).
    for (let i = 0; i < 500 && !out.includes('slow started'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    proc.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 20));
    proc.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
    expect(await pending).toBe('{"done":true}');
    expect(code).toBe(0);
    expect(out).toContain('SIGINT received\n');
    expect(out).toContain('SIGINT received again; still shutting down (the cap is 10000 ms)');
    expect(out).toContain('App shut down cleanly; exiting with 0');
  }, 30_000);
});
