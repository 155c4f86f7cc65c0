import { connect } from 'node:net';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, FileFormPart, FormPart, serve, Struct } from '../src/index';
import { memoryLogger } from './fixtures';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const PartHeaders = Struct('PartHeaders', { x_checksum: v.optional(v.string()) });
const Upload = Struct('Upload', {
  title: v.string(),
  count: v.optional(v.number()),
  tags: v.optional(v.array(v.string())),
  note: FormPart(v.string(), { headers: PartHeaders }),
  avatar: FileFormPart(),
  extra: v.optional(FileFormPart()),
});

class UploadEndpoint extends Endpoint('/upload') {
  post = this.operation({ form: Upload, returns: v.unknown() }, ({ form }) => ({
    title: form.title,
    count: form.count ?? null,
    tags: form.tags ?? [],
    note: {
      value: form.note.value,
      contentType: form.note.contentType ?? null,
      checksum: form.note.headers.x_checksum ?? null,
      raw: form.note.rawHeaders.multiItems(),
    },
    avatar: {
      filename: form.avatar.filename,
      size: form.avatar.content.length,
      contentType: form.avatar.contentType ?? null,
      text: form.avatar.content.toString('utf8'),
    },
    extra: form.extra?.filename ?? null,
  }));
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new UploadEndpoint());
  }
}
function client(): TestClient {
  const c = new TestClient(new App({ logger: memoryLogger() }));
  clients.push(c);
  return c;
}

const boundary = 'XyZ-boundary';
function multipart(parts: string[]): string {
  return parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`;
}
const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };

describe('form source (multipart/form-data)', () => {
  it('binds plain fields (coerced, repeats into arrays), FormParts with envelope, and files', async () => {
    const body = multipart([
      'Content-Disposition: form-data; name="title"\r\n\r\nHello',
      'Content-Disposition: form-data; name="count"\r\n\r\n3',
      'Content-Disposition: form-data; name="tags"\r\n\r\na',
      'Content-Disposition: form-data; name="tags"\r\n\r\nb',
      'Content-Disposition: form-data; name="note"\r\nContent-Type: text/plain\r\nX-Checksum: c1\r\nx-checksum: c2\r\n\r\nnote text',
      'Content-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\n\r\nPNGDATA',
    ]);
    const res = await client().post('/upload', { content: body, headers });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      title: 'Hello',
      count: 3,
      tags: ['a', 'b'],
      note: {
        value: 'note text',
        contentType: 'text/plain',
        checksum: 'c1, c2',
        raw: [
          ['Content-Disposition', 'form-data; name="note"'],
          ['Content-Type', 'text/plain'],
          ['X-Checksum', 'c1'],
          ['x-checksum', 'c2'],
        ],
      },
      avatar: { filename: 'me.png', size: 7, contentType: 'image/png', text: 'PNGDATA' },
      extra: null,
    });
  });

  it('builds the same body through the test client (data + files)', async () => {
    const res = await client().post('/upload', {
      data: { title: 'T', note: 'n' },
      files: { avatar: { filename: 'a.txt', content: 'file body', contentType: 'text/plain' } },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'T',
      avatar: { filename: 'a.txt', size: 9, contentType: 'text/plain' },
    });
  });

  it('answers 415 for a body that is not multipart', async () => {
    const res = await client().post('/upload', { json: { title: 'x' } });
    expect(res.status).toBe(415);
    expect(res.json()).toEqual(UNSUPPORTED);
  });

  it('answers 400 for a broken multipart body', async () => {
    const res = await client().post('/upload', {
      content: `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nno end`,
      headers,
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ type: 'malformed-request', status: 400 });
  });

  it('answers 422 for a missing field and for a file without a filename', async () => {
    const noAvatar = multipart([
      'Content-Disposition: form-data; name="title"\r\n\r\nT',
      'Content-Disposition: form-data; name="note"\r\n\r\nn',
    ]);
    const missing = await client().post('/upload', { content: noAvatar, headers });
    expect(missing.status).toBe(422);
    expect(missing.json()).toMatchObject({
      type: 'validation-failed',
      detail: 'Missing required field at `form avatar`',
    });
    const nameless = multipart([
      'Content-Disposition: form-data; name="title"\r\n\r\nT',
      'Content-Disposition: form-data; name="note"\r\n\r\nn',
      'Content-Disposition: form-data; name="avatar"\r\n\r\nbytes',
    ]);
    const res = await client().post('/upload', { content: nameless, headers });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({ detail: 'File part without a filename at `form avatar`' });
  });
});

// ------------------------------------------------------------------ hardening (issue #11)

const Signature = Struct('Signature', { x_signature: v.string(), x_part: v.optional(v.number()) });
const Meta = Struct('Meta', { title: v.string(), size: v.number(), tags: v.optional(v.array(v.string())) });
const Hardened = Struct('Hardened', {
  signed: v.optional(FormPart(v.string(), { headers: Signature })),
  meta: v.optional(FormPart(Meta)),
  numbers: v.optional(FormPart(v.array(v.number()))),
  payload: v.optional(FormPart.bytes()),
  file: v.optional(FileFormPart()),
  files: v.optional(v.array(FileFormPart())),
  counts: v.optional(v.array(FormPart(v.number()))),
});
class HardenedEndpoint extends Endpoint('/hardened') {
  post = this.operation({ form: Hardened, returns: v.unknown() }, ({ form }) => ({
    signed: form.signed ? { value: form.signed.value, signature: form.signed.headers.x_signature } : null,
    meta: form.meta?.value ?? null,
    numbers: form.numbers?.value ?? null,
    payload: form.payload
      ? { hex: form.payload.value.toString('hex'), contentType: form.payload.contentType ?? null }
      : null,
    file: form.file ? { filename: form.file.filename, rawFilename: form.file.rawFilename } : null,
    files:
      form.files?.map((f) => ({
        filename: f.filename,
        rawFilename: f.rawFilename,
        text: f.content.toString('utf8'),
      })) ?? null,
    counts: form.counts?.map((c) => c.value) ?? null,
  }));
}
class HardenedApp extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new HardenedEndpoint());
  }
}
function hardenedClient(): TestClient {
  const c = new TestClient(new HardenedApp({ logger: memoryLogger() }));
  clients.push(c);
  return c;
}
const EMPTY = {
  signed: null,
  meta: null,
  numbers: null,
  payload: null,
  file: null,
  files: null,
  counts: null,
};
function malformedBody(path: string, message: string): unknown {
  return {
    type: 'malformed-request',
    title: 'Malformed request',
    status: 400,
    detail: `${message} at \`${path}\``,
    params: { reason: `${message} at \`${path}\``, issues: [{ path, message }] },
  };
}
function invalidBody(path: string, message: string): unknown {
  return {
    type: 'validation-failed',
    title: 'Validation failed',
    status: 422,
    detail: `${message} at \`${path}\``,
    params: { reason: `${message} at \`${path}\``, issues: [{ path, message }] },
  };
}
/** The 415 Problem of a form route: it says what the route accepts. */
const UNSUPPORTED = {
  type: 'unsupported-media-type',
  title: 'Unsupported media type',
  status: 415,
  detail:
    'This operation accepts multipart/form-data with a boundary parameter, or application/x-www-form-urlencoded in UTF-8 without a content-encoding',
  params: {
    accepted:
      'multipart/form-data with a boundary parameter, or application/x-www-form-urlencoded in UTF-8 without a content-encoding',
  },
};

describe('form part headers', () => {
  it('answers 400 malformed-request for a missing required part header', async () => {
    const res = await hardenedClient().post('/hardened', {
      content: multipart(['Content-Disposition: form-data; name="signed"\r\n\r\ntext']),
      headers,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json()).toEqual(malformedBody('form signed header x-signature', 'Missing required field'));
  });

  it('answers 400 for a part header that does not convert, and binds valid ones', async () => {
    const c = hardenedClient();
    const bad = await c.post('/hardened', {
      content: multipart([
        'Content-Disposition: form-data; name="signed"\r\nX-Signature: s\r\nX-Part: two\r\n\r\ntext',
      ]),
      headers,
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual(malformedBody('form signed header x-part', 'Expected number, got other text'));
    const ok = await c.post('/hardened', {
      content: multipart(['Content-Disposition: form-data; name="signed"\r\nX-Signature: s1\r\n\r\ntext']),
      headers,
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ ...EMPTY, signed: { value: 'text', signature: 's1' } });
  });

  it('treats part headers named like Object.prototype members as plain names', async () => {
    const res = await hardenedClient().post('/hardened', {
      content: multipart([
        'Content-Disposition: form-data; name="signed"\r\nconstructor: c\r\n__proto__: p\r\nX-Signature: s\r\n\r\nt',
      ]),
      headers,
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ...EMPTY, signed: { value: 't', signature: 's' } });
  });
});

describe('multipart framing', () => {
  it('answers 415 for multipart/form-data without a usable boundary', async () => {
    const c = hardenedClient();
    for (const type of [
      'multipart/form-data',
      'multipart/form-data; charset=utf-8',
      `multipart/form-data; boundary=${'x'.repeat(71)}`,
      'multipart/form-data; boundary=""',
    ]) {
      const res = await c.post('/hardened', {
        content: multipart(['Content-Disposition: form-data; name="signed"\r\n\r\nx']),
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(415);
      expect(res.json()).toEqual(UNSUPPORTED);
    }
  });

  it('answers 400 for parts named __proto__ or constructor', async () => {
    const c = hardenedClient();
    for (const name of ['__proto__', 'constructor']) {
      const res = await c.post('/hardened', {
        content: multipart([`Content-Disposition: form-data; name="${name}"\r\n\r\n{"polluted":true}`]),
        headers,
      });
      expect(res.status, name).toBe(400);
      const message = 'Multipart part names "__proto__" and "constructor" are not accepted';
      expect(res.json()).toEqual({
        type: 'malformed-request',
        title: 'Malformed request',
        status: 400,
        detail: `Malformed multipart body: ${message}`,
        params: { reason: `Malformed multipart body: ${message}`, issues: [{ path: 'form', message }] },
      });
    }
  });

  it('answers 413 at once for a content-length over the form total, without reading the body', async () => {
    const running = await serve(
      new HardenedApp({ logger: memoryLogger(), limits: { multipart: { maxTotalSize: 1000 } } }),
      { port: 0, signals: false, quiet: true },
    );
    try {
      const head =
        'POST /hardened HTTP/1.1\r\nHost: x\r\n' +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        'Content-Length: 104857600\r\n\r\n' +
        `--${boundary}\r\n`; // a few body bytes, then nothing: a server that waits for the rest never answers
      const { text, closedByServer } = await rawRequest(running.port, head, 3000);
      expect(closedByServer).toBe(true);
      const [statusLine, ...lines] = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
      expect(statusLine).toBe('HTTP/1.1 413 Payload Too Large');
      const fields = new Map(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]),
      );
      expect(fields.get('connection')).toBe('close');
      expect(fields.get('content-type')).toBe('application/problem+json');
      expect(text.slice(text.indexOf('\r\n\r\n') + 4)).toBe(
        '{"type":"payload-too-large","title":"Payload too large","status":413,' +
          '"detail":"The request is over its multipart.maxTotalSize limit of 1000 bytes",' +
          '"params":{"limit":"multipart.maxTotalSize","bytes":1000}}',
      );
    } finally {
      await running.close();
    }
  });

  it('still streams a body without content-length against the total limit', async () => {
    const running = await serve(
      new HardenedApp({ logger: memoryLogger(), limits: { multipart: { maxTotalSize: 1000 } } }),
      { port: 0, signals: false, quiet: true },
    );
    try {
      const chunk = `--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\n\r\n${'x'.repeat(2000)}`;
      const head =
        'POST /hardened HTTP/1.1\r\nHost: x\r\n' +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n' +
        `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
      const { text } = await rawRequest(running.port, head, 3000);
      expect(text.startsWith('HTTP/1.1 413 Payload Too Large\r\n')).toBe(true);
      expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
    } finally {
      await running.close();
    }
  });
});

describe('refusals mid-body', () => {
  it('answers a malformed part with 400 and closes instead of draining the rest', async () => {
    const running = await serve(new HardenedApp({ logger: memoryLogger() }), {
      port: 0,
      signals: false,
      quiet: true,
    });
    try {
      const chunk = `--${boundary}\r\nbogus header line\r\n\r\n`;
      const head =
        'POST /hardened HTTP/1.1\r\nHost: x\r\n' +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n' +
        `${chunk.length.toString(16)}\r\n${chunk}\r\n`; // the body never ends
      const { text, closedByServer } = await rawRequest(running.port, head, 3000);
      expect(closedByServer).toBe(true);
      expect(text.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
      expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
      const message = 'Multipart part header line is not "Name: value"';
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
        type: 'malformed-request',
        title: 'Malformed request',
        status: 400,
        detail: `Malformed multipart body: ${message}`,
        params: { reason: `Malformed multipart body: ${message}`, issues: [{ path: 'form', message }] },
      });
    } finally {
      await running.close();
    }
  });
});

describe('file names', () => {
  it('exposes the safe basename as filename and the name as sent only as rawFilename', async () => {
    const c = hardenedClient();
    for (const [sent, safe] of [
      ['me.png', 'me.png'],
      ['../../etc/passwd', 'passwd'],
      ['/abs/path/a.txt', 'a.txt'],
      ['C:\\\\Users\\\\ada\\\\cv.pdf', 'cv.pdf'],
      ['dir\\\\..\\\\x.txt', 'x.txt'],
      ['a\u0000b\u0007c.txt', 'abc.txt'],
      ['..hidden..txt', '..hidden..txt'],
      [' spaced name.txt ', 'spaced name.txt'],
    ] as const) {
      const res = await c.post('/hardened', {
        content: multipart([`Content-Disposition: form-data; name="file"; filename="${sent}"\r\n\r\nbytes`]),
        headers,
      });
      expect(res.status, sent).toBe(200);
      const raw = sent.replace(/\\\\/g, '\\'); // a quoted "\\" unescapes to one backslash
      expect(res.json(), sent).toEqual({ ...EMPTY, file: { filename: safe, rawFilename: raw } });
    }
  });

  it('decodes filename* before taking the basename', async () => {
    const res = await hardenedClient().post('/hardened', {
      content: multipart([
        'Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'..%2F..%2Fr%C3%A9sum%C3%A9.pdf\r\n\r\nx',
      ]),
      headers,
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      ...EMPTY,
      file: { filename: 'résumé.pdf', rawFilename: '../../résumé.pdf' },
    });
  });

  it('hands over names of at most 255 UTF-8 bytes, keeping the extension and whole characters', async () => {
    const c = hardenedClient();
    const cases: [string, string][] = [
      ['a'.repeat(10 * 1024) + '.txt', 'a'.repeat(251) + '.txt'],
      ['é'.repeat(200) + '.pdf', 'é'.repeat(125) + '.pdf'], // 251 bytes left: 125 × 2, never half an é
      ['😀'.repeat(100) + '.png', '😀'.repeat(62) + '.png'], // 251 bytes left: 62 × 4
      ['x'.repeat(300), 'x'.repeat(255)], // no extension
      ['a.' + 'b'.repeat(300), ('a.' + 'b'.repeat(300)).slice(0, 255)], // an "extension" too long to keep
      ['dir/' + 'n'.repeat(251) + '.txt', 'n'.repeat(251) + '.txt'], // exactly 255 after the basename
    ];
    for (const [sent, expected] of cases) {
      const encoded = encodeURIComponent(sent);
      const res = await c.post('/hardened', {
        content: multipart([
          `Content-Disposition: form-data; name="file"; filename*=UTF-8''${encoded}\r\n\r\nx`,
        ]),
        headers,
      });
      expect(res.status, sent.slice(0, 20)).toBe(200);
      const { file } = res.json<{ file: { filename: string; rawFilename: string } }>();
      expect(file.filename, sent.slice(0, 20)).toBe(expected);
      expect(Buffer.byteLength(file.filename)).toBeLessThanOrEqual(255);
      expect(Buffer.byteLength(file.rawFilename)).toBeLessThanOrEqual(255);
    }
    // The name as sent is cut the same way (its directories kept, as sent).
    const raw = await c.post('/hardened', {
      content: multipart([
        `Content-Disposition: form-data; name="file"; filename="../${'r'.repeat(300)}.csv"\r\n\r\nx`,
      ]),
      headers,
    });
    expect(raw.json()).toEqual({
      ...EMPTY,
      file: { filename: 'r'.repeat(251) + '.csv', rawFilename: '../' + 'r'.repeat(248) + '.csv' },
    });
  });

  it('answers 422 for a file name with no usable basename', async () => {
    const c = hardenedClient();
    for (const sent of ['..', '../', 'a/..', '.', '\u0001']) {
      const res = await c.post('/hardened', {
        content: multipart([`Content-Disposition: form-data; name="file"; filename="${sent}"\r\n\r\nx`]),
        headers,
      });
      expect(res.status, sent).toBe(422);
      expect(res.json()).toEqual(invalidBody('form file', 'File part filename has no usable name'));
    }
  });
});

describe('JSON, bytes and repeated parts', () => {
  it('decodes a structured FormPart as JSON and validates it', async () => {
    const c = hardenedClient();
    const ok = await c.post('/hardened', {
      content: multipart([
        'Content-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"title":"T","size":3,"tags":["a"]}',
        'Content-Disposition: form-data; name="numbers"\r\n\r\n[1, 2.5, -3]',
      ]),
      headers,
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({
      ...EMPTY,
      meta: { title: 'T', size: 3, tags: ['a'] },
      numbers: [1, 2.5, -3],
    });
  });

  it('answers 422 with the field path when the JSON part does not match', async () => {
    const c = hardenedClient();
    const res = await c.post('/hardened', {
      content: multipart(['Content-Disposition: form-data; name="meta"\r\n\r\n{"title":"T","size":"3"}']),
      headers,
    });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual(invalidBody('form meta.size', 'Expected number, got other text'));
    const nested = await c.post('/hardened', {
      content: multipart([
        'Content-Disposition: form-data; name="meta"\r\n\r\n{"title":"T","size":1,"tags":[1]}',
      ]),
      headers,
    });
    expect(nested.status).toBe(422);
    expect(nested.json()).toEqual(invalidBody('form meta.tags.0', 'Expected string, got number'));
  });

  it('answers 400 for a JSON part that is not JSON, is empty, or carries __proto__', async () => {
    const c = hardenedClient();
    for (const [body, message] of [
      ['{"title":', 'Form part is not valid JSON'],
      ['title=T', 'Form part is not valid JSON'],
      ['', 'Form part is empty; expected JSON'],
      [
        '{"title":"T","size":1,"__\\u0070roto__":{"admin":true}}',
        'JSON keys "__proto__" and "constructor.prototype" are not accepted',
      ],
      [
        '{"title":"T","size":1,"__proto__":{"admin":true}}',
        'JSON keys "__proto__" and "constructor.prototype" are not accepted',
      ],
    ] as const) {
      const res = await c.post('/hardened', {
        content: multipart([`Content-Disposition: form-data; name="meta"\r\n\r\n${body}`]),
        headers,
      });
      expect(res.status, body).toBe(400);
      expect(res.json()).toEqual(malformedBody('form meta', message));
    }
  });

  it('binds FormPart.bytes() as the raw bytes', async () => {
    const bytes = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x80, 0x41]);
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="payload"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await hardenedClient().post('/hardened', { content: body, headers });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      ...EMPTY,
      payload: { hex: '00ff0d0a8041', contentType: 'application/octet-stream' },
    });
  });

  it('binds every file of a v.array(FileFormPart()) field, in order', async () => {
    const res = await hardenedClient().post('/hardened', {
      files: {
        files: [
          { filename: 'one.txt', content: 'first' },
          { filename: '../two.txt', content: 'second' },
          { filename: 'three.txt', content: 'third' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      ...EMPTY,
      files: [
        { filename: 'one.txt', rawFilename: 'one.txt', text: 'first' },
        { filename: 'two.txt', rawFilename: '../two.txt', text: 'second' },
        { filename: 'three.txt', rawFilename: 'three.txt', text: 'third' },
      ],
    });
  });

  it('checks every part of an array field and names its index', async () => {
    const c = hardenedClient();
    const ok = await c.post('/hardened', { data: { counts: ['1', '2', '3'] } });
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ ...EMPTY, counts: [1, 2, 3] });
    const bad = await c.post('/hardened', { data: { counts: ['1', 'x'] } });
    expect(bad.status).toBe(422);
    expect(bad.json()).toEqual(invalidBody('form counts.1', 'Expected number, got other text'));
    const nameless = await c.post('/hardened', {
      content: multipart([
        'Content-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\na',
        'Content-Disposition: form-data; name="files"\r\n\r\nb',
      ]),
      headers,
    });
    expect(nameless.status).toBe(422);
    expect(nameless.json()).toEqual(invalidBody('form files.1', 'File part without a filename'));
  });
});

const Nested = Struct('Nested', {
  title: v.string(),
  meta: Meta,
  labels: v.optional(v.record(v.string(), v.number())),
  metas: v.optional(v.array(Meta)),
});
class NestedEndpoint extends Endpoint('/nested') {
  post = this.operation({ form: Nested, returns: v.unknown() }, ({ form }) => ({
    title: form.title,
    meta: form.meta,
    labels: form.labels ?? null,
    metas: form.metas ?? null,
  }));
}
class NestedApp extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new NestedEndpoint());
  }
}
function nestedClient(): TestClient {
  const c = new TestClient(new NestedApp({ logger: memoryLogger() }));
  clients.push(c);
  return c;
}
const field = (name: string, text: string, extra = ''): string =>
  `Content-Disposition: form-data; name="${name}"${extra}\r\n\r\n${text}`;

describe('bare structured fields (nested models without FormPart)', () => {
  it('bind from a plain data field whose text is JSON, or from a JSON part (with a file name and type)', async () => {
    const c = nestedClient();
    const plain = await c.post('/nested', {
      content: multipart([
        field('title', 'T'),
        field('meta', '{"title":"m","size":2,"tags":["a"]}'),
        field('labels', '{"a":1,"b":2}'),
        field('metas', '{"title":"x","size":1}'),
        field('metas', '{"title":"y","size":3}'),
      ]),
      headers,
    });
    expect(plain.status).toBe(200);
    expect(plain.json()).toEqual({
      title: 'T',
      meta: { title: 'm', size: 2, tags: ['a'] },
      labels: { a: 1, b: 2 },
      metas: [
        { title: 'x', size: 1 },
        { title: 'y', size: 3 },
      ],
    });
    const jsonPart = await c.post('/nested', {
      content: multipart([
        field('title', 'T'),
        field('meta', '{"title":"m","size":2}', '; filename="meta.json"\r\nContent-Type: application/json'),
      ]),
      headers,
    });
    expect(jsonPart.status).toBe(200);
    expect(jsonPart.json()).toEqual({ title: 'T', meta: { title: 'm', size: 2 }, labels: null, metas: null });
  });

  it('answer 400 naming the field when its text is not JSON (or is empty)', async () => {
    const c = nestedClient();
    const bad = await c.post('/nested', {
      content: multipart([field('title', 'T'), field('meta', 'title=m&size=2')]),
      headers,
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual(malformedBody('form meta', 'Form part is not valid JSON'));
    const empty = await c.post('/nested', {
      content: multipart([field('title', 'T'), field('meta', '')]),
      headers,
    });
    expect(empty.status).toBe(400);
    expect(empty.json()).toEqual(malformedBody('form meta', 'Form part is empty; expected JSON'));
    const item = await c.post('/nested', {
      content: multipart([
        field('title', 'T'),
        field('meta', '{"title":"m","size":2}'),
        field('metas', '{"title":"x","size":1}'),
        field('metas', '{"title":'),
      ]),
      headers,
    });
    expect(item.status).toBe(400);
    expect(item.json()).toEqual(malformedBody('form metas.1', 'Form part is not valid JSON'));
  });

  it('answer 422 with the field path for a bad shape, and for a missing nested model', async () => {
    const c = nestedClient();
    const wrong = await c.post('/nested', {
      content: multipart([field('title', 'T'), field('meta', '{"title":"m","size":"2"}')]),
      headers,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json()).toEqual(invalidBody('form meta.size', 'Expected number, got other text'));
    const itemWrong = await c.post('/nested', {
      content: multipart([
        field('title', 'T'),
        field('meta', '{"title":"m","size":2}'),
        field('metas', '{"title":"x","size":1}'),
        field('metas', '{"size":1}'),
      ]),
      headers,
    });
    expect(itemWrong.status).toBe(422);
    expect(itemWrong.json()).toEqual(invalidBody('form metas.1.title', 'Missing required field'));
    const missing = await c.post('/nested', { content: multipart([field('title', 'T')]), headers });
    expect(missing.status).toBe(422);
    expect(missing.json()).toEqual(invalidBody('form meta', 'Missing required field'));
  });
  it('accepts a record inside a JSON part', async () => {
    class Labels extends Endpoint('/labels') {
      post = this.operation(
        { form: Struct('L', { labels: FormPart(v.record(v.string(), v.string())) }), returns: v.unknown() },
        ({ form }) => form.labels.value,
      );
    }
    class Ok extends BaseApp {
      protected override async wire(): Promise<void> {
        this.includeEndpoint(new Labels());
      }
    }
    const c = new TestClient(new Ok({ logger: memoryLogger() }));
    clients.push(c);
    const res = await c.post('/labels', {
      content: multipart(['Content-Disposition: form-data; name="labels"\r\n\r\n{"a":"1","b":"2"}']),
      headers,
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ a: '1', b: '2' });
  });
});

/** Writes raw bytes, never ends the request, and collects the answer until the server closes (or `ms`). */
function rawRequest(
  port: number,
  text: string,
  ms: number,
): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: out, closedByServer: false });
    }, ms);
    socket.on('data', (d: Buffer) => (out += d.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: out, closedByServer: true });
    });
  });
}
