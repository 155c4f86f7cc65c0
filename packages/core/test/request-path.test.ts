// Which of core's files a JSON POST runs through, measured (test/child/request-path.ts: V8's
// precise coverage around single requests under plain Node). docs/extensions.md lists them; this
// keeps the list true and the path short: at most 10 files.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./child/request-path.ts', import.meta.url));

describe('the request path', () => {
  it('a JSON POST runs through the core files docs/extensions.md lists, at most 10', () => {
    const out = execFileSync(process.execPath, ['--conditions=@api/source', '--import', 'tsx', child], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const { statuses, files } = JSON.parse(out) as { statuses: number[]; files: string[] };
    expect(statuses).toEqual([201]);
    const doc = readFileSync(new URL('../../../docs/extensions.md', import.meta.url), 'utf8');
    const block = /<!-- json-post-files -->\n([\s\S]*?)<!-- \/json-post-files -->/.exec(doc);
    const listed = [...(block?.[1] ?? '').matchAll(/`([a-z/-]+\.ts)`/g)].map((m) => m[1]!).sort();
    expect(files).toEqual(listed);
    expect(files.length).toBeLessThanOrEqual(10);
  });
});
