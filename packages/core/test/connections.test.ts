// Issue 22 item 4: connections after a refusal (lingering close, one answer per request, Host).
import { connect, type Socket } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, Struct, serve, type LimitsOptions, type RunningServer } from '../src/index';
import { memoryLogger, rawExchange } from './fixtures';

const Counter = Struct('Counter', { n: v.number() });
class Counters extends Endpoint('/counter') {
  post = this.operation({ json: Counter, returns: Counter }, ({ json }) => json);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Counters());
  }
}

const servers: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function listening(limits?: LimitsOptions): Promise<RunningServer> {
  const app = new App({ logger: memoryLogger(), ...(limits ? { limits } : {}) });
  const running = await serve(app, { port: 0, signals: false, quiet: true });
  servers.push(running);
  return running;
}

const CHUNK = '4000\r\n' + 'x'.repeat(0x4000) + '\r\n'; // one 16 KiB chunk of a chunked body

interface Upload {
  /** Everything the server sent, read after the client stopped writing. */
  readonly text: string;
  /** The client's socket error, if the connection was reset under it. */
  readonly error: string | undefined;
  /** Body bytes the client managed to write. */
  readonly written: number;
}

/**
 * A client that writes its whole body before it reads the answer (as most HTTP/1.1 clients do):
 * `chunks` chunks of 16 KiB, one every `everyMs`, reading paused until it is done writing.
 */
function uploadThenRead(port: number, head: string, chunks: number, everyMs: number): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.pause();
    let text = '';
    let written = 0;
    let error: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    const done = (): void => {
      clearInterval(timer);
      resolve({ text, error, written });
    };
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code;
      done();
    });
    socket.on('close', done);
    socket.on('connect', () => {
      socket.write(head);
      let sent = 0;
      timer = setInterval(() => {
        if (sent === chunks) {
          clearInterval(timer);
          socket.resume(); // done writing: read the answer
          return;
        }
        sent++;
        socket.write(CHUNK, (e) => {
          if (!e) written += CHUNK.length;
        });
      }, everyMs);
    });
  });
}

const head = (path: string, type = 'application/json'): string =>
  `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: ${type}\r\ntransfer-encoding: chunked\r\n\r\n`;

describe('lingering close after an early refusal', () => {
  it('a client that uploads before it reads sees its 404 / 415 and a clean close, not a reset', async () => {
    const { port } = await listening();
    for (const [path, type, status] of [
      ['/nope', 'application/json', 'HTTP/1.1 404 Not Found'],
      ['/counter', 'text/plain', 'HTTP/1.1 415 Unsupported Media Type'],
    ] as const) {
      // 8 × 16 KiB = 128 KiB over ~80 ms: well inside the default 1 MiB / 2 s.
      const { text, error, written } = await uploadThenRead(port, head(path, type), 8, 10);
      expect(error, path).toBeUndefined();
      expect(written, path).toBe(8 * CHUNK.length);
      expect(text.split('\r\n')[0], path).toBe(status);
      expect(text.toLowerCase(), path).toContain('\r\nconnection: close\r\n');
      // The whole Problem body (a 415 adds what the route accepts).
      expect(text, path).toMatch(
        /\r\n\r\n\{"type":"[a-z-]+","title":"[^"]+","status":\d+(,"detail":"[^"]+","params":\{[^}]*\})?\}$/,
      );
    }
  });

  it('stops after maxLingerBytes more bytes of an endless body', async () => {
    // The time bound is far away: only the byte bound can end this connection soon.
    const { port } = await listening({ maxLingerBytes: 64 * 1024, lingerTimeoutMs: 20_000 });
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    const closed = new Promise<void>((resolve) => {
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    socket.on('connect', () => {
      socket.write(head('/nope'));
      const pump = (): void => {
        while (!socket.destroyed && socket.write(CHUNK));
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    });
    const started = performance.now();
    await closed;
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(text).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
  });

  it('stops after lingerTimeoutMs while the body keeps trickling in, and lingers until then', async () => {
    const { port } = await listening({ lingerTimeoutMs: 1_000 });
    // allowHalfOpen: the client keeps writing after the server's FIN (as an uploading client does).
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    sockets.push(socket);
    let text = '';
    let answeredAt = 0;
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (answeredAt === 0 && text.endsWith('}')) answeredAt = performance.now();
    });
    // A few bytes every 25 ms: far under the byte bound, so only the timer ends the connection,
    // and the first write after it is answered by a reset.
    let trickle: NodeJS.Timeout | undefined;
    const cut = new Promise<number>((resolve) => {
      socket.on('error', () => resolve(performance.now()));
      socket.on('close', () => resolve(performance.now()));
    });
    socket.on('connect', () => {
      socket.write(head('/nope'));
      trickle = setInterval(() => socket.write('1\r\nx\r\n'), 25);
    });
    const cutAt = await cut;
    clearInterval(trickle);
    expect(text).toMatch(/^HTTP\/1\.1 404 Not Found\r\n[\s\S]*"status":404\}$/);
    // It lingered (no reset right after the answer) and was ended by the timer, not keep-alive (5 s).
    expect(cutAt - answeredAt).toBeGreaterThanOrEqual(500);
    expect(cutAt - answeredAt).toBeLessThan(8_000);
  });
});

describe('one answer per request', () => {
  it('transfer-encoding: xchunked is answered once (400), and nothing more is written', async () => {
    const { port } = await listening();
    const { text, ended } = await rawExchange(
      port,
      'POST /counter HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: xchunked\r\n\r\n7\r\n{"n":1}\r\n0\r\n\r\n',
      /(?!)/, // until the server closes
    );
    expect(ended).toBe(true);
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 400']);
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toMatch(/"detail":"transfer-encoding must be exactly \\"chunked\\""[\s\S]*\}$/);
  });

  it('a missing or doubled Host is answered 400 with connection: close, and the connection closes', async () => {
    const { port } = await listening();
    for (const [request, detail] of [
      ['GET /counter HTTP/1.1\r\n\r\n', 'The request has no Host header (required by HTTP/1.1)'],
      ['GET /counter HTTP/1.1\r\nhost: a\r\nhost: b\r\n\r\n', 'The request has more than one Host header'],
    ] as const) {
      // A second, valid request follows on the same connection: it must never be answered.
      const { text, ended } = await rawExchange(
        port,
        request + 'GET /counter HTTP/1.1\r\nhost: x\r\n\r\n',
        /(?!)/, // until the server closes
      );
      expect(ended, detail).toBe(true);
      expect(text.match(/HTTP\/1\.1 \d{3}/g), detail).toEqual(['HTTP/1.1 400']);
      expect(text.toLowerCase(), detail).toContain('\r\nconnection: close\r\n');
      expect(text, detail).toContain(`"detail":"${detail}"`);
    }
  });
});
