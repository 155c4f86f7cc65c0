/// <reference lib="dom" />
// The offline docs page in a real browser: headless Chromium (Debian's, driven by playwright-core)
// with every request that is not to a loopback host aborted. The page must render the operation
// list with no aborted request, no CSP violation and no console error.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian installs Chromium; `CHROMIUM_PATH` overrides. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches headless Chromium with the flags this repository uses (TOOLCHAIN.md); every launch gets a fresh, empty profile. */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

function isLoopback(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]' || hostname === '::1';
  } catch {
    return false;
  }
}

/** What loading the docs page did. */
export interface DocsPageReport {
  /** URLs that were not on a loopback host (each one aborted). */
  readonly aborted: readonly string[];
  readonly cspViolations: readonly string[];
  readonly consoleErrors: readonly string[];
  /** Every request the page made (loopback ones were let through). */
  readonly requests: readonly string[];
  /** The rendered page's text (after `expectText` appeared, or the timeout). */
  readonly text: string;
  /** `<script>` elements in the DOM once rendered. */
  readonly scriptCount: number;
  /** The response headers of the page itself. */
  readonly headers: Readonly<Record<string, string>>;
  /** True when `expectText` appeared. */
  readonly rendered: boolean;
}

/** Options of `checkDocsPage`. */
export interface DocsPageOptions {
  /** Text the rendered operation list must contain (e.g. a path such as `/widgets`). */
  readonly expectText: string;
  /** Write a screenshot here once rendered. */
  readonly screenshot?: string;
  /** A browser to reuse (else one is launched and closed). */
  readonly browser?: Browser;
  readonly timeoutMs?: number;
}

/** Loads `<baseUrl><docsPath>` with off-loopback requests aborted and reports what happened. */
export async function checkDocsPage(url: string, options: DocsPageOptions): Promise<DocsPageReport> {
  const own = options.browser ? undefined : await launchChromium();
  const browser = options.browser ?? own!.browser;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const aborted: string[] = [];
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  const cspFromConsole: string[] = [];
  try {
    await context.route('**/*', async (route) => {
      const target = route.request().url();
      requests.push(target);
      if (isLoopback(target)) await route.continue();
      else {
        aborted.push(target);
        await route.abort('blockedbyclient');
      }
    });
    const page = await context.newPage();
    // Init scripts run outside the page's CSP: record every violation event.
    await page.addInitScript(() => {
      const w = window as unknown as { __csp: string[] };
      w.__csp = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        w.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
      });
    });
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (/Content Security Policy/i.test(text)) cspFromConsole.push(text);
      consoleErrors.push(text);
    });
    page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    const response = await page.goto(url, { waitUntil: 'load' });
    const headers = response ? await response.allHeaders() : {};
    let rendered = true;
    try {
      await page.waitForFunction((text) => document.body.innerText.includes(text), options.expectText, {
        timeout: options.timeoutMs ?? 30_000,
      });
      // Let late requests (fonts, images, telemetry) happen before counting them.
      await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    } catch {
      rendered = false;
    }
    const text = await page.evaluate(() => document.body.innerText);
    const scriptCount = await page.evaluate(() => document.querySelectorAll('script').length);
    const cspEvents = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
    if (options.screenshot) {
      mkdirSync(dirname(options.screenshot), { recursive: true });
      await page.screenshot({ path: options.screenshot });
    }
    return {
      aborted,
      cspViolations: [...cspEvents, ...cspFromConsole],
      consoleErrors,
      requests,
      text,
      scriptCount,
      headers,
      rendered,
    };
  } finally {
    await context.close();
    await own?.close();
  }
}
