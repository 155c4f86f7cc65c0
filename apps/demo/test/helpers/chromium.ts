// Headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core) with the flags this
// repository uses; every launch gets a fresh, empty profile. `localhost` is mapped to 127.0.0.1
// so pages can use it: Chromium treats http://localhost as a secure context, so the demo's
// `Secure` session cookie is stored and sent.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP localhost 127.0.0.1',
    ],
  });
}

/** `http://127.0.0.1:<port>` → `http://localhost:<port>`. */
export function localhost(url: string): string {
  return url.replace('://127.0.0.1:', '://localhost:');
}

/** Collects a page's console errors and uncaught exceptions. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}
