// The docs page in headless Chromium with every off-loopback request aborted, and the escaping
// of every interpolated value (a hostile title or description never adds a script).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { TestClient } from '@api/testing';
import { checkDocsPage, expectOfflineDocsPage, launchChromium } from './conformance';
import { TestApp } from './fixtures/app';

// The README's picture is refreshed only on request (UPDATE_SCREENSHOT=1): a test run leaves the
// tracked file alone.
const SCREENSHOT = process.env.UPDATE_SCREENSHOT
  ? fileURLToPath(new URL('../docs/docs-page.png', import.meta.url))
  : join(tmpdir(), `api-openapi-docs-page-${process.pid}.png`);
const HOSTILE_TITLE = '</title><script>alert(1)</script>';
const HOSTILE_DESCRIPTION = 'Widgets "quoted" & <b>bold</b> </script><script>alert(2)</script>';

let chromium: { browser: Browser; close(): Promise<void> };
let client: TestClient;
let hostile: TestClient;

beforeAll(async () => {
  chromium = await launchChromium();
  client = await TestClient.start(new TestApp());
  hostile = await TestClient.start(
    new TestApp({ openapi: { title: HOSTILE_TITLE, description: HOSTILE_DESCRIPTION } }),
  );
}, 60_000);
afterAll(async () => {
  await hostile?.close();
  await client?.close();
  await chromium?.close();
});

const scriptTags = (html: string): number => (html.match(/<script\b/gi) ?? []).length;

describe('the docs page in headless Chromium (offline)', () => {
  it('renders the operation list with zero aborted requests, CSP violations or console errors', async () => {
    const report = await checkDocsPage(`${client.url}/docs`, {
      browser: chromium.browser,
      expectText: '/widgets',
      screenshot: SCREENSHOT,
    });
    expectOfflineDocsPage(report);
    expect(report.text).toContain('/widgets');
    expect(report.text).toContain('Widgets API');
    expect(report.text).toContain('Answers, one JSON line per chunk.');
    expect(report.headers['content-security-policy']).toContain("script-src 'self'");
    // The page, the script and the document; nothing else left the page.
    expect(report.requests.map((u) => new URL(u).pathname)).toEqual(
      expect.arrayContaining(['/docs', '/docs/scalar/1.72.1/standalone.js', '/openapi.json']),
    );
  }, 90_000);

  it('aborts (and reports) a request that leaves loopback: the check can fail', async () => {
    const withRemoteIcon = await TestClient.start(
      new TestApp({ openapi: { favicon: 'https://icons.example.com/favicon.png' } }),
    );
    try {
      const report = await checkDocsPage(`${withRemoteIcon.url}/docs`, {
        browser: chromium.browser,
        expectText: '/widgets',
      });
      expect(report.aborted).toContain('https://icons.example.com/favicon.png');
    } finally {
      await withRemoteIcon.close();
    }
  }, 90_000);
});

describe('escaping', () => {
  it("a hostile title and description do not change the served page's script count", async () => {
    const normal = (await client.get('/docs')).text;
    const page = (await hostile.get('/docs')).text;
    expect(scriptTags(page)).toBe(scriptTags(normal));
    expect(scriptTags(page)).toBe(3);
    expect(page).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(page).toContain(
      '<meta name="description" content="Widgets &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt; &lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;">',
    );
  });

  it("nor the rendered DOM's, and no script runs from them", async () => {
    const normal = await checkDocsPage(`${client.url}/docs`, {
      browser: chromium.browser,
      expectText: '/widgets',
    });
    const report = await checkDocsPage(`${hostile.url}/docs`, {
      browser: chromium.browser,
      expectText: '/widgets',
    });
    expect(report.scriptCount).toBe(normal.scriptCount);
    expect(report.consoleErrors).toEqual([]);
    expect(report.cspViolations).toEqual([]);
    // The document itself carries them as data; Scalar shows the title as text.
    expect(report.text).toContain(HOSTILE_TITLE);
  }, 90_000);
});
