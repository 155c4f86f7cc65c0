// `form` Structs bind application/x-www-form-urlencoded bodies (an HTML form's default) by the same
// field rules as multipart: coercion, repeats for arrays, limits, 422s with field paths.
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '@api/testing';
import { BaseApp, Endpoint, FileFormPart, FormPart, Struct } from '../src/index';
import { memoryLogger } from './fixtures';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const Rename = Struct('Rename', {
  name: v.pipe(v.string(), v.minLength(1)),
  priceCents: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  tags: v.optional(v.array(v.string())),
  agree: v.optional(v.boolean()),
  note: v.optional(FormPart(v.string())),
  meta: v.optional(Struct('Meta', { color: v.string() })),
});
class RenameEndpoint extends Endpoint('/rename') {
  post = this.operation({ form: Rename, returns: v.unknown() }, ({ form }) => ({
    ...form,
    note:
      form.note === undefined ? null : { value: form.note.value, contentType: form.note.contentType ?? null },
  }));
}
const WithFile = Struct('WithFile', { title: v.string(), file: FileFormPart() });
class FileEndpoint extends Endpoint('/with-file') {
  post = this.operation({ form: WithFile, returns: v.unknown() }, ({ form }) => ({ title: form.title }));
}
class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new RenameEndpoint());
    this.includeEndpoint(new FileEndpoint(), { limits: { maxBodyBytes: 100, multipart: { maxFields: 3 } } });
  }
}
function client(): TestClient {
  const c = new TestClient(new App({ logger: memoryLogger() }));
  clients.push(c);
  return c;
}
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('form source (application/x-www-form-urlencoded)', () => {
  it('binds fields as an HTML form sends them: +, percent-escapes, coercion, repeats into arrays', async () => {
    const res = await client().post('/rename', {
      content:
        'name=Blue+Widget+%E2%9C%93&priceCents=250&tags=a&tags=b%26c&agree=true&note=hi&meta=%7B%22color%22%3A%22red%22%7D&&unknown=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      name: 'Blue Widget ✓',
      priceCents: 250,
      tags: ['a', 'b&c'],
      agree: true,
      note: { value: 'hi', contentType: null },
      meta: { color: 'red' },
    });
  });

  it('takes the last of a repeated scalar, and an empty body as no fields', async () => {
    const res = await client().post('/rename', { content: 'name=a&name=b', headers: FORM });
    expect(res.json()).toMatchObject({ name: 'b' });
    const empty = await client().post('/rename', { content: '', headers: FORM });
    expect(empty.status).toBe(422);
    expect(empty.json()).toMatchObject({
      detail: 'Missing required field at `form name`',
      params: { issues: [{ path: 'form name', message: 'Missing required field' }] },
    });
  });

  it('answers 422 with the field path for a value that fails the schema', async () => {
    const res = await client().post('/rename', { content: 'name=x&priceCents=-1', headers: FORM });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      type: 'validation-failed',
      params: { issues: [{ path: 'form priceCents' }] },
    });
    const empty = await client().post('/rename', { content: 'name=', headers: FORM });
    expect(empty.status).toBe(422);
  });

  it('answers 400 for a broken percent-escape, 415 for another charset, 415 for JSON', async () => {
    const broken = await client().post('/rename', { content: 'name=%E2%9C', headers: FORM });
    expect(broken.status).toBe(400);
    expect(broken.json()).toMatchObject({
      type: 'malformed-request',
      detail: 'Malformed form body: a percent-escape is not valid UTF-8',
    });
    const latin1 = await client().post('/rename', {
      content: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
    });
    expect(latin1.status).toBe(415);
    expect((await client().post('/rename', { json: { name: 'x' } })).status).toBe(415);
  });

  it('cannot carry a file (422 naming the field), and keeps the limits (413, too many fields 400)', async () => {
    const file = await client().post('/with-file', { content: 'title=t&file=abc', headers: FORM });
    expect(file.status).toBe(422);
    expect(file.json()).toMatchObject({ detail: 'File part without a filename at `form file`' });
    const big = await client().post('/with-file', { content: `title=${'x'.repeat(200)}`, headers: FORM });
    expect(big.status).toBe(413);
    const many = await client().post('/with-file', { content: 'a=1&b=2&c=3&d=4', headers: FORM });
    expect(many.status).toBe(400);
    expect(many.json()).toMatchObject({ detail: 'Malformed form body: more than 3 fields' });
  });
});
