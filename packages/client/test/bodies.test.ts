// Wire tests: request bodies (JSON, multipart, url-encoded, raw) and the errors a route class or the
// app declares outside the operation, against a real @api server on a socket.
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/index';
import { type AppErrors, type FixtureApp } from './fixture/app';
import { clientAt, onServer, routes } from './fixture/wire';

let app: FixtureApp;
let baseUrl: string;
onServer((started) => {
  app = started.app;
  baseUrl = started.url;
});
const client = (options: Parameters<typeof clientAt>[1] = {}) => clientAt(baseUrl, options);

describe('bodies', () => {
  it('sends a multipart form from an object: text, numbers, JSON parts and files', async () => {
    const api = client();
    const answer = await api.uploads.post({
      form: {
        note: 'hello',
        count: 3,
        meta: { title: 'Doc' },
        avatar: new File([new Uint8Array([1, 2, 3, 4])], 'me.png', { type: 'image/png' }),
        extras: [new Blob(['a']), new Blob(['b'])],
      },
    });
    expect(answer).toMatchObject({
      ok: true,
      data: {
        note: 'hello',
        count: 3,
        title: 'Doc',
        avatar: { filename: 'me.png', size: 4, contentType: 'image/png' },
        extras: 2,
      },
    });
  });

  it('sends a FormData as it is, and gets the 422 of a missing field', async () => {
    const form = new FormData();
    form.append('note', 'x');
    const answer = await client().uploads.post({ form });
    if (answer.status !== 422) throw new Error(`expected 422, got ${answer.status}`);
    expect(answer.error.params.reason).toMatch(/count/);
  });

  it('sends a fields object url-encoded with formEncoding, repeats for arrays', async () => {
    const seen: Request[] = [];
    const api = client({ fetch: (request) => (seen.push(request.clone()), fetch(request)) });
    const answer = await api.signup.post({
      form: { name: 'Ada Lovelace', age: 36, tags: ['math', 'a&b'], agree: true },
      formEncoding: 'urlencoded',
    });
    expect(answer.status).toBe(200);
    expect(answer.ok && answer.data).toEqual({
      name: 'Ada Lovelace',
      age: 36,
      tags: ['math', 'a&b'],
      agree: true,
    });
    expect(seen[0]!.headers.get('content-type')).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(await seen[0]!.text()).toBe('name=Ada+Lovelace&age=36&tags=math&tags=a%26b&agree=true');
  });

  it('sends a URLSearchParams url-encoded, and gets the 422 naming a bad field', async () => {
    const ok = await client().signup.post({
      form: new URLSearchParams([
        ['name', 'Bo'],
        ['age', '7'],
      ]),
    });
    expect(ok.status).toBe(200);
    expect(ok.ok && ok.data).toEqual({ name: 'Bo', age: 7 });
    const bad = await client().signup.post({ form: new URLSearchParams({ name: 'Bo', age: 'old' }) });
    if (bad.status !== 422) throw new Error(`expected 422, got ${bad.status}`);
    expect(bad.error.type).toBe('validation-failed');
    expect(bad.error.params.issues[0]?.path).toBe('form age');
  });

  it('refuses a file in a url-encoded form before sending', async () => {
    let sent = 0;
    const api = client({ fetch: (request) => (sent++, fetch(request)) });
    await expect(
      api.uploads.post({
        form: { note: 'x', count: 1, meta: { title: 't' }, avatar: new Blob(['a']) },
        formEncoding: 'urlencoded',
      }),
    ).rejects.toThrow('form field "avatar" is a file, which cannot be sent url-encoded');
    expect(sent).toBe(0);
  });

  it('sends raw content as octets unless a type is given', async () => {
    const answer = await client().raw.post({ content: new Uint8Array([9, 8, 7]) });
    expect(answer).toMatchObject({ ok: true, data: { bytes: 3, contentType: 'application/octet-stream' } });
  });
});

describe('errors declared outside the operation', () => {
  // The app's handlers are not part of any route class: the client names them (README: "App-wide errors").
  const typed = () => createClient<typeof routes, AppErrors>({ baseUrl, routes });

  it('answer a class-level exception with its Problem', async () => {
    const answer = await typed().vault.readMany({ params: { fail: 'locked' } });
    if (answer.status !== 423) throw new Error(`expected 423, got ${answer.status}`);
    expect(answer.error).toEqual({ type: 'locked', title: 'Locked', status: 423 });
  });

  it("answer an app exception handler's declared bodies", async () => {
    const api = typed();
    const quota = await api.vault.readMany({ params: { fail: 'quota' } });
    if (quota.status !== 409) throw new Error(`expected 409, got ${quota.status}`);
    expect(quota.error).toEqual({ quota: 'files', limit: 10 });
    const down = await api.vault.readMany({ params: { fail: 'maintenance' } });
    if (down.status !== 503) throw new Error(`expected 503, got ${down.status}`);
    expect(down.error).toEqual({ type: 'unavailable', title: 'Down for maintenance', status: 503 });
    expect(await api.vault.readMany().orThrow()).toEqual(['a', 'b']);
  });
});
