import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MultipartError, defaultMultipartLimits, parseMultipart, type MultipartPart } from './index';
import { prng } from '../../test/prng';

const B = '----WebKitFormBoundary7MA4YWxkTrZu0gW';

async function* chunked(body: Buffer, sizes: () => number): AsyncGenerator<Buffer> {
  let pos = 0;
  while (pos < body.length) {
    const n = Math.max(1, sizes());
    yield body.subarray(pos, pos + n);
    pos += n;
  }
}

function whole(body: Buffer | string): AsyncIterable<Buffer> {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return chunked(buf, () => buf.length);
}

function bytewise(body: Buffer): AsyncIterable<Buffer> {
  return chunked(body, () => 1);
}

function body(parts: Array<{ headers: string[]; data: Buffer | string }>, boundary = B): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    out.push(Buffer.from(`--${boundary}\r\n${p.headers.map((h) => `${h}\r\n`).join('')}\r\n`, 'utf8'));
    out.push(typeof p.data === 'string' ? Buffer.from(p.data, 'utf8') : p.data);
    out.push(Buffer.from('\r\n', 'latin1'));
  }
  out.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return Buffer.concat(out);
}

const tricky = Buffer.concat([
  Buffer.from(`\r\n--${B.slice(0, 20)}\r\r\n-\r\n--\r\n--${B.slice(0, -1)}x --${B}\n--${B}`, 'latin1'),
  Buffer.from([0, 255, 13, 10, 13, 10, 45, 45]),
  Buffer.from('end\r', 'latin1'),
]);

const sample = body([
  { headers: ['Content-Disposition: form-data; name="title"'], data: 'Hello, wörld' },
  {
    headers: [
      'Content-Disposition: form-data; name="file"; filename="a.bin"',
      'Content-Type: application/octet-stream',
    ],
    data: tricky,
  },
  { headers: ['content-disposition: form-data; name="empty"'], data: '' },
  {
    headers: ['Content-Disposition: form-data; name="doc"; filename=""', 'X-Extra:  spaced  '],
    data: '\r\n',
  },
]);

function summary(parts: MultipartPart[]): unknown {
  return parts.map((p) => ({ ...p, data: p.data.toString('hex') }));
}

describe('parseMultipart', () => {
  it('parses fields and files with their headers', async () => {
    const parts = await parseMultipart(whole(sample), B);
    expect(parts).toHaveLength(4);
    expect(parts[0]).toEqual({
      name: 'title',
      filename: undefined,
      contentType: undefined,
      rawHeaders: [['Content-Disposition', 'form-data; name="title"']],
      data: Buffer.from('Hello, wörld'),
    });
    expect(parts[1]?.filename).toBe('a.bin');
    expect(parts[1]?.contentType).toBe('application/octet-stream');
    expect(parts[1]?.data.equals(tricky)).toBe(true);
    expect(parts[1]?.rawHeaders).toEqual([
      ['Content-Disposition', 'form-data; name="file"; filename="a.bin"'],
      ['Content-Type', 'application/octet-stream'],
    ]);
    expect(parts[2]).toMatchObject({ name: 'empty', filename: undefined });
    expect(parts[2]?.data.length).toBe(0);
    expect(parts[3]).toMatchObject({ name: 'doc', filename: '' });
    expect(parts[3]?.rawHeaders[1]).toEqual(['X-Extra', 'spaced']);
    expect(parts[3]?.data.toString()).toBe('\r\n');
  });

  it('gives the same result for 1-byte chunks', async () => {
    const expected = summary(await parseMultipart(whole(sample), B));
    expect(summary(await parseMultipart(bytewise(sample), B))).toEqual(expected);
  });

  it('gives the same result for random chunk sizes', async () => {
    const expected = summary(await parseMultipart(whole(sample), B));
    for (let seed = 1; seed <= 200; seed++) {
      const rand = prng(seed);
      const max = 1 + (seed % 70);
      const parts = await parseMultipart(
        chunked(sample, () => 1 + Math.floor(rand() * max)),
        B,
      );
      expect(summary(parts), `seed ${seed}`).toEqual(expected);
    }
  });

  it('round-trips random binary files under random chunking', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rand = prng(seed * 7919);
      const files = Array.from({ length: 3 }, () => {
        const data = Buffer.alloc(Math.floor(rand() * 20000));
        // Bias towards CR, LF and '-' so partial delimiters are common.
        for (let i = 0; i < data.length; i++)
          data[i] = rand() < 0.3 ? [13, 10, 45][Math.floor(rand() * 3)]! : Math.floor(rand() * 256);
        return data;
      });
      const raw = body(
        files.map((data, i) => ({
          headers: [`Content-Disposition: form-data; name="f${i}"; filename="f"`],
          data,
        })),
      );
      const parts = await parseMultipart(
        chunked(raw, () => 1 + Math.floor(rand() * 300)),
        B,
      );
      expect(
        parts.map((p) => p.data.equals(files[Number(p.name.slice(1))]!)),
        `seed ${seed}`,
      ).toEqual([true, true, true]);
    }
  });

  it('accepts Uint8Array chunks', async () => {
    async function* u8(): AsyncGenerator<Uint8Array> {
      const copy = new Uint8Array(sample.length + 8);
      copy.set(sample, 4);
      yield copy.subarray(4, 4 + sample.length);
    }
    const parts = await parseMultipart(u8(), B);
    expect(parts.map((p) => p.name)).toEqual(['title', 'file', 'empty', 'doc']);
  });

  it('returns copies that do not alias the input chunks', async () => {
    const input = Buffer.from(body([{ headers: ['Content-Disposition: form-data; name="a"'], data: 'xyz' }]));
    const [part] = await parseMultipart(whole(input), B);
    input.fill(0);
    expect(part?.data.toString()).toBe('xyz');
  });

  it('ignores a preamble, an epilogue and transport padding', async () => {
    const raw =
      `preamble line\r\n--${B} \t\r\nContent-Disposition: form-data; name="a"\r\n` +
      `\r\n1\r\n--${B}--\r\nepilogue`;
    const parts = await parseMultipart(whole(raw), B);
    expect(parts.map((p) => [p.name, p.data.toString()])).toEqual([['a', '1']]);
    expect((await parseMultipart(bytewise(Buffer.from(raw)), B)).length).toBe(1);
  });

  it('accepts a body with only the closing delimiter', async () => {
    expect(await parseMultipart(whole(`--${B}--\r\n`), B)).toEqual([]);
    expect(await parseMultipart(whole(`--${B}--`), B)).toEqual([]);
  });

  it('works with a quoted boundary containing spaces and specials', async () => {
    const b = "a'()+_,-./:=? z";
    const raw = body([{ headers: ['Content-Disposition: form-data; name="x"'], data: 'v' }], b);
    const parts = await parseMultipart(bytewise(raw), b);
    expect(parts[0]?.data.toString()).toBe('v');
  });

  it('unescapes quoted names and keeps lone backslashes', async () => {
    const raw = body([
      {
        headers: ['Content-Disposition: form-data; name="say \\"hi\\" \\\\ now"; filename="C:\\dir\\a.txt"'],
        data: 'x',
      },
    ]);
    const [part] = await parseMultipart(whole(raw), B);
    expect(part?.name).toBe('say "hi" \\ now');
    expect(part?.filename).toBe('C:\\dir\\a.txt');
  });

  it('decodes filename* (RFC 5987) and prefers it over filename', async () => {
    const raw = body([
      {
        headers: [
          `Content-Disposition: form-data; name=f; filename="euro.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt`,
        ],
        data: 'x',
      },
      { headers: [`Content-Disposition: form-data; name=g; filename*=iso-8859-1'en'caf%E9`], data: 'y' },
      {
        headers: [`Content-Disposition: form-data; name=h; filename="ok.txt"; filename*=UTF-8''%FF%ZZ`],
        data: 'z',
      },
      { headers: ['Content-Disposition: form-data; name="über"; filename="naïve.txt"'], data: 'w' },
    ]);
    const parts = await parseMultipart(whole(raw), B);
    expect(parts.map((p) => [p.name, p.filename])).toEqual([
      ['f', '€ rates.txt'],
      ['g', 'café'],
      ['h', 'ok.txt'],
      ['über', 'naïve.txt'],
    ]);
  });

  it('exposes the default limits', () => {
    expect(defaultMultipartLimits).toEqual({
      maxFileSize: 10 * 1024 * 1024,
      maxFields: 100,
      maxParts: 1000,
      maxFieldSize: 1024 * 1024,
      maxHeaderSize: 16 * 1024,
      maxTotalSize: 20 * 1024 * 1024,
      maxSpooledBytes: 1024 * 1024 * 1024,
    });
  });
});

async function failure(promise: Promise<unknown>): Promise<MultipartError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof MultipartError) return e;
    throw e;
  }
  throw new Error('expected a MultipartError');
}

describe('parseMultipart errors', () => {
  const cd = (name: string): string => `Content-Disposition: form-data; name="${name}"`;

  it.each([
    ['no opening boundary', 'hello world'],
    ['an empty body', ''],
    ['a wrong boundary', `--other\r\n${cd('a')}\r\n\r\nx\r\n--other--`],
    ['no closing boundary', `--${B}\r\n${cd('a')}\r\n\r\nx`],
    ['a body that ends after a delimiter', `--${B}\r\n${cd('a')}\r\n\r\nx\r\n--${B}`],
    ['a body that ends inside headers', `--${B}\r\n${cd('a')}`],
    ['no Content-Disposition', `--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${B}--`],
    ['an empty header block', `--${B}\r\n\r\nx\r\n--${B}--`],
    ['no name', `--${B}\r\nContent-Disposition: form-data; filename="a"\r\n\r\nx\r\n--${B}--`],
    [
      'a non form-data disposition',
      `--${B}\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--${B}--`,
    ],
    ['an unterminated quote', `--${B}\r\nContent-Disposition: form-data; name="a\r\n\r\nx\r\n--${B}--`],
    ['a header line without a colon', `--${B}\r\n${cd('a')}\r\nbogus\r\n\r\nx\r\n--${B}--`],
    ['a folded header line', `--${B}\r\n${cd('a')}\r\n x: y\r\n\r\nx\r\n--${B}--`],
    ['junk after a boundary', `--${B}junk\r\n${cd('a')}\r\n\r\nx\r\n--${B}--`],
    ['a part named __proto__', `--${B}\r\n${cd('__proto__')}\r\n\r\nx\r\n--${B}--`],
    ['a part named constructor', `--${B}\r\n${cd('constructor')}\r\n\r\nx\r\n--${B}--`],
  ])('rejects %s as malformed', async (_label, raw) => {
    const e = await failure(parseMultipart(whole(raw), B));
    expect(e.kind).toBe('malformed');
    const e1 = await failure(parseMultipart(bytewise(Buffer.from(raw)), B));
    expect(e1.kind).toBe('malformed');
  });

  it('rejects an invalid boundary argument', async () => {
    expect((await failure(parseMultipart(whole(''), ''))).kind).toBe('malformed');
    expect((await failure(parseMultipart(whole(''), 'x'.repeat(71)))).kind).toBe('malformed');
    expect((await failure(parseMultipart(whole(''), 'a\r\nb'))).kind).toBe('malformed');
  });

  it('rejects an oversized header block as malformed', async () => {
    const raw = body([{ headers: [cd('a'), `X-Big: ${'y'.repeat(200)}`], data: 'x' }]);
    const e = await failure(parseMultipart(whole(raw), B, { maxHeaderSize: 100 }));
    expect(e.kind).toBe('malformed');
    expect(e.message).toContain('header');
    expect(await parseMultipart(whole(raw), B, { maxHeaderSize: 300 })).toHaveLength(1);
  });

  it('rejects an oversized unterminated header line as malformed', async () => {
    const raw = `--${B}\r\nX: ${'y'.repeat(1000)}`;
    expect((await failure(parseMultipart(bytewise(Buffer.from(raw)), B, { maxHeaderSize: 100 }))).kind).toBe(
      'malformed',
    );
  });

  it('rejects a file over maxFileSize but allows exactly the limit', async () => {
    const file = (n: number): Buffer =>
      body([{ headers: [`${cd('f')}; filename="a"`], data: Buffer.alloc(n, 0x61) }]);
    expect(await parseMultipart(bytewise(file(10)), B, { maxFileSize: 10 })).toHaveLength(1);
    const e = await failure(parseMultipart(bytewise(file(11)), B, { maxFileSize: 10, maxFieldSize: 100 }));
    expect(e.kind).toBe('too-large');
    expect(e.message).toBe('Multipart file part exceeds 10 bytes');
  });

  it('rejects a field over maxFieldSize', async () => {
    const raw = body([{ headers: [cd('f')], data: 'x'.repeat(11) }]);
    const e = await failure(parseMultipart(whole(raw), B, { maxFieldSize: 10, maxFileSize: 100 }));
    expect(e.kind).toBe('too-large');
    expect(e.message).toBe('Multipart field part exceeds 10 bytes');
  });

  it('rejects too many fields, but files do not count as fields', async () => {
    const fields = (n: number, files = 0): Buffer =>
      body([
        ...Array.from({ length: n }, (_, i) => ({ headers: [cd(`f${i}`)], data: 'v' })),
        ...Array.from({ length: files }, (_, i) => ({
          headers: [`${cd(`u${i}`)}; filename="x"`],
          data: 'v',
        })),
      ]);
    expect(await parseMultipart(whole(fields(3, 5)), B, { maxFields: 3 })).toHaveLength(8);
    const e = await failure(parseMultipart(whole(fields(4)), B, { maxFields: 3 }));
    expect(e.kind).toBe('too-many');
  });

  it('rejects too many parts', async () => {
    const raw = body(
      Array.from({ length: 4 }, (_, i) => ({ headers: [`${cd(`u${i}`)}; filename="x"`], data: 'v' })),
    );
    expect(await parseMultipart(whole(raw), B, { maxParts: 4 })).toHaveLength(4);
    expect((await failure(parseMultipart(whole(raw), B, { maxParts: 3 }))).kind).toBe('too-many');
  });

  it('stops pulling chunks as soon as a limit is hit and does not return() the iterator', async () => {
    let pulled = 0;
    let returned = false;
    const head = Buffer.from(`--${B}\r\n${cd('f')}; filename="big"\r\n\r\n`);
    const block = Buffer.alloc(1024, 0x61);
    const source: AsyncIterable<Buffer> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          pulled++;
          return { done: false, value: pulled === 1 ? head : block };
        },
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const e = await failure(parseMultipart(source, B, { maxFileSize: 4096 }));
    expect(e.kind).toBe('too-large');
    expect(pulled).toBe(6); // head + 4 full blocks fit; the 5th block crosses the limit
    expect(returned).toBe(false);
  });

  it('leaves a refused Node stream undestroyed and drainable with resume()', async () => {
    let reads = 0;
    const head = Buffer.from(`--${B}\r\n${cd('f')}\r\n\r\n`);
    const stream = new Readable({
      highWaterMark: 1024,
      read() {
        reads++;
        this.push(reads === 1 ? head : reads < 200 ? Buffer.alloc(1024, 0x61) : null);
      },
    });
    const e = await failure(parseMultipart(stream, B, { maxFieldSize: 4096 }));
    expect(e.kind).toBe('too-large');
    expect(stream.destroyed).toBe(false);
    expect(reads).toBeLessThan(20);
    const ended = new Promise<void>((resolve) => stream.once('end', resolve));
    stream.resume();
    await ended;
    expect(reads).toBe(200);
  });

  it('reads a Node stream to its end on success', async () => {
    const stream = Readable.from([sample.subarray(0, 100), sample.subarray(100)], { objectMode: false });
    const parts = await parseMultipart(stream, B);
    expect(parts).toHaveLength(4);
    expect(stream.readableEnded).toBe(true);
  });

  it('propagates errors from the body stream', async () => {
    async function* broken(): AsyncGenerator<Buffer> {
      yield Buffer.from(`--${B}\r\n`);
      throw new Error('socket reset');
    }
    await expect(parseMultipart(broken(), B)).rejects.toThrow('socket reset');
  });

  it('never echoes submitted bytes in messages', async () => {
    const e = await failure(parseMultipart(whole(`--${B}\r\nsecret-header-line\r\n\r\n`), B));
    expect(e.message).not.toContain('secret');
  });
});

describe('parseMultipart total size', () => {
  it('refuses a body whose parts together exceed maxTotalSize', async () => {
    const parts = Array.from({ length: 5 }, (_, i) => ({
      headers: [`Content-Disposition: form-data; name="f${i}"; filename="f${i}.bin"`],
      data: Buffer.alloc(300),
    }));
    const buf = body(parts);
    await expect(
      parseMultipart(
        chunked(buf, () => 64),
        B,
        { maxTotalSize: 1000 },
      ),
    ).rejects.toMatchObject({ kind: 'too-large' });
    const ok = await parseMultipart(
      chunked(buf, () => 64),
      B,
      { maxTotalSize: buf.length },
    );
    expect(ok).toHaveLength(5);
  });
});
