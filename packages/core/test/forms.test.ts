import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, FileFormPart, FormPart, Struct } from '../src/index';
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
    expect(res.json()).toEqual({
      type: 'unsupported-media-type',
      title: 'Unsupported media type',
      status: 415,
    });
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
