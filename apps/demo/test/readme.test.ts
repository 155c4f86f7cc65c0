// README.md's documented requests, sent to a running demo in order (one in-memory database), each
// answer compared with the documented one; every `location` and `link` an answer documents is
// followed and must lead somewhere (2xx/3xx). Edit the README's ```http blocks and this follows.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, startDemo } from './helpers/demo';
import {
  documentedExchanges,
  jsonMismatch,
  matchesText,
  pointedAt,
  type DocumentedExchange,
} from './helpers/readme-exchanges';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const exchanges = documentedExchanges(README);

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(async () => {
  await demo.client.close();
});

/** Reads a streamed body until it holds `length` characters or `waitMs` passed, then stops it. */
async function readSome(
  res: Response,
  length: number,
  waitMs: number,
  abort: AbortController,
): Promise<string> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const timer = setTimeout(() => abort.abort(), waitMs);
  try {
    while (text.length < length || length === 0) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } catch {
    // aborted: what arrived is the answer
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return text;
}

async function send(e: DocumentedExchange): Promise<{ res: Response; body: string }> {
  const abort = new AbortController();
  const res = await fetch(demo.client.url + e.path, {
    method: e.method,
    headers: e.requestHeaders.map(([k, v]) => [k, v] as [string, string]),
    ...(e.requestBody === undefined ? {} : { body: e.requestBody }),
    redirect: 'manual',
    signal: abort.signal,
  });
  const streamed = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  // A stream never ends: read what the README shows (or, when it shows nothing, 300 ms of
  // nothing — a busy machine can only make an unexpected event later, never earlier).
  const body = streamed
    ? await readSome(res, e.responseBody.length, e.responseBody === '' ? 300 : 10_000, abort)
    : await res.text();
  return { res, body };
}

describe('apps/demo/README.md', () => {
  it('documents exchanges (```http blocks) for the routes a newcomer tries first', () => {
    const titles = exchanges.map((e) => e.title);
    for (const first of ['GET /', 'POST /session', 'GET /featured-widget', 'GET /notifications'])
      expect(titles).toContain(first);
  });

  for (const e of exchanges)
    it(`${e.title} answers as documented`, async () => {
      const { res, body } = await send(e);
      expect(res.status, body).toBe(e.status);
      for (const [name, value] of e.responseHeaders)
        expect(
          matchesText(value, res.headers.get(name) ?? '(absent)'),
          `${name}: ${res.headers.get(name)} (documented ${value})`,
        ).toBe(true);
      if (e.responseBody === '') expect(body).toBe('');
      else if (/^[[{]/.test(e.responseBody))
        expect(jsonMismatch(JSON.parse(e.responseBody), JSON.parse(body))).toBeUndefined();
      else expect(matchesText(`${e.responseBody}…`, body), body).toBe(true);
      const auth = e.requestHeaders
        .filter(([k]) => k === 'authorization')
        .map(([k, v]): [string, string] => [k, v]);
      for (const url of pointedAt(res.headers)) {
        const followed = await fetch(new URL(url, demo.client.url), { headers: auth, redirect: 'manual' });
        expect(followed.status, `${e.title} points at ${url}`).toBeLessThan(400);
        await followed.body?.cancel();
      }
    });
});
