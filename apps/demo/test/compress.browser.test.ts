// @api/compress in the demo, read by headless Chromium (which sends `Accept-Encoding: gzip,
// deflate, br, zstd`): the widgets list arrives brotli-compressed, and the NDJSON answer and the
// SSE notifications arrive compressed *and live* — each line or event decoded by the browser while
// the stream is still open, not at its end.
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import { launchChromium, localhost } from './helpers/chromium';
import type { RecordedExchange } from './helpers/conformance';
import { checkContract } from './helpers/contract';
import { AUTH, startDemo } from './helpers/demo';

/** Pause between the words of a streamed answer: long enough that buffering would show. */
const WORD_MS = 100;

const exchanges: RecordedExchange[] = [];
let browser: Browser;
let client: TestClient;
let origin: string;

beforeAll(async () => {
  ({ client } = await startDemo({ exchanges, answerDelayMs: WORD_MS, widgetWritesPerMinute: 100 }));
  origin = localhost(client.url);
  browser = await launchChromium();
  for (let i = 0; i < 40; i++)
    await client.post('/widgets', {
      headers: AUTH,
      json: { name: `widget number ${i}`, priceCents: 100 + i },
    });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await client?.close();
});

/** A page on the API's origin, with every response's headers by path. */
async function open(): Promise<{
  page: Page;
  headers: Map<string, Record<string, string>>;
  close(): Promise<void>;
}> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const headers = new Map<string, Record<string, string>>();
  page.on('response', (response: Response) => {
    void response.allHeaders().then((all) => headers.set(new URL(response.url()).pathname, all));
  });
  await page.goto(`${origin}/healthz`);
  return { page, headers, close: () => context.close() };
}

describe('compression in a real browser', () => {
  it('serves the widgets list with br, decoded by the browser', async () => {
    const { page, headers, close } = await open();
    try {
      const names = await page.evaluate(async () => {
        const res = await fetch('/widgets?limit=40', { headers: { authorization: 'Bearer token' } });
        return ((await res.json()) as { name: string }[]).map((w) => w.name);
      });
      expect(names).toHaveLength(40);
      expect(names[39]).toBe('widget number 39');
      await expect.poll(() => headers.get('/widgets')?.['content-encoding']).toBe('br');
      expect(headers.get('/widgets')?.vary).toMatch(/accept-encoding/);
    } finally {
      await close();
    }
  });

  it('streams the NDJSON answer compressed, line by line as the words are produced', async () => {
    const { page, headers, close } = await open();
    try {
      const arrivals = await page.evaluate(async () => {
        const res = await fetch('/questions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'what is a price?' }),
        });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        const out: { text: string; at: number }[] = [];
        let buffered = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffered += value;
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            out.push({
              text: (JSON.parse(buffered.slice(0, nl)) as { text: string }).text,
              at: performance.now(),
            });
            buffered = buffered.slice(nl + 1);
          }
        }
        return out;
      });
      expect(arrivals.map((a) => a.text).join('')).toBe('Prices are integers in cents, so 1999 means 19.99.');
      // Nine words, 100 ms apart: delivered as produced, the first and last arrive ~800 ms apart
      // (all at once, at the end, if the encoder held them). Half of that, to hold on a busy machine.
      expect(arrivals.at(-1)!.at - arrivals[0]!.at).toBeGreaterThan(400);
      await expect.poll(() => headers.get('/questions')?.['content-encoding']).toBe('br');
    } finally {
      await close();
    }
  });

  it('feeds an EventSource compressed events while the stream stays open', async () => {
    const { page, headers, close } = await open();
    try {
      const received = await page.evaluate(
        () =>
          new Promise<string[]>((resolve, reject) => {
            const ids: string[] = [];
            const source = new EventSource('/notifications');
            const timer = setTimeout(() => reject(new Error(`only ${ids.length} events`)), 5000);
            for (const type of ['widget.created', 'widget.updated', 'widget.deleted'])
              source.addEventListener(type, (event) => {
                ids.push((event as MessageEvent<string>).lastEventId);
                if (ids.length === 3) {
                  clearTimeout(timer);
                  source.close();
                  resolve(ids);
                }
              });
          }),
      );
      // The feed never ends by itself: the three events could only arrive flushed, one by one.
      expect(received).toEqual(['1', '2', '3']);
      await expect.poll(() => headers.get('/notifications')?.['content-encoding']).toBe('br');
      expect(headers.get('/notifications')?.['content-type']).toBe('text/event-stream');
    } finally {
      await close();
    }
  });

  it('every compressed answer matches /openapi.json once decoded', async () => {
    const report = await checkContract(exchanges);
    expect(report.violations).toEqual([]);
    // (An SSE feed the client closes never finishes, so it is not recorded.)
    for (const pair of ['WidgetResource_readMany 200', 'QuestionsEndpoint_post 200'])
      expect(report.covered, pair).toContain(pair);
    expect(exchanges.some((e) => e.headers['content-encoding'] === 'br')).toBe(true);
  }, 60_000);
});
