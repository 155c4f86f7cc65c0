import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER = fileURLToPath(new URL('./fixtures/sse-server.ts', import.meta.url));
const CAP_MS = 10_000; // core's default shutdownTimeoutMs

describe('SIGTERM with an SSE client connected', () => {
  it('ends the stream with its terminating chunk, runs teardown, and exits well within the cap', async () => {
    const child = spawn(process.execPath, ['--conditions=@api/source', '--import', 'tsx', SERVER], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (text: string) => {
        out += text;
        const match = /listening (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`server exited early (${code}): ${out}`)));
    });

    const socket = connect(port, '127.0.0.1');
    let wire = '';
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => (wire += text));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /events HTTP/1.1\r\nhost: x\r\naccept: text/event-stream\r\n\r\n');
    await new Promise<void>((resolve) => {
      const check = (): void => (wire.includes('hello') ? resolve() : void setTimeout(check, 5));
      check();
    });

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const began = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    const took = performance.now() - began;
    await closed;

    expect(code).toBe(0);
    expect(took).toBeLessThan(CAP_MS / 2);
    expect(out).toContain('setup\n');
    expect(out).toContain('teardown\n');
    expect(wire).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(wire).toContain('data: {"message":"hello"}\n\n');
    expect(wire.endsWith('\r\n0\r\n\r\n')).toBe(true); // the terminating chunk: a complete response
  }, 20_000);
});
