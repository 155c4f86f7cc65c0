// The demo's page scripts (public/index.js, public/notifications.js) are web/*.ts bundled with
// @api/client by scripts/build-web.mjs: the committed files are what a fresh build gives, and the
// route classes came in as types only (no server module, no @api/core, no valibot in the bundle).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildWeb, PAGES } from '../scripts/build-web.mjs';

describe('the page bundles', () => {
  it('are up to date with web/ (run pnpm --filter @api/demo build:web)', async () => {
    const { files } = await buildWeb({ write: false });
    expect([...files.keys()].map((path) => path.replace(/^.*\/public\//, '')).sort()).toEqual(
      Object.keys(PAGES)
        .map((page) => `${page}.js`)
        .sort(),
    );
    for (const [path, text] of files) expect(readFileSync(path, 'utf8'), path).toBe(text);
  });

  it('hold the pages and @api/client only: the server arrives as types', async () => {
    const { inputs } = await buildWeb({ write: false });
    const foreign = inputs.filter(
      (input) => !input.startsWith('web/') && !input.includes('packages/client/src/'),
    );
    expect(foreign).toEqual([]);
    expect(inputs).toContain('web/api.ts');
  });
});
