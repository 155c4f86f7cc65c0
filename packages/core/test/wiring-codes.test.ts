// The WiringError codes are a contract (issue 28): the type, the docs table and the source stay in
// step — every code documented with its meaning, none documented that does not exist, none unused.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wiringError } from '../src/extension';
import { Endpoint, WiringError } from '../src/index';
import { expectWiringError } from './expect-wiring-error';

const src = join(import.meta.dirname, '../src');
const codesOf = (text: string): string[] =>
  [...new Set(text.match(/\bAPI_WIRING(?:_[A-Z]+)*\b/g) ?? [])].sort();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('WiringErrorCode', () => {
  const declared = codesOf(readFileSync(join(src, 'contract/wiring-codes.ts'), 'utf8'));

  it('every code has one row in docs/errors.md, and every row is a code', () => {
    const docs = readFileSync(join(import.meta.dirname, '../../../docs/errors.md'), 'utf8');
    const rows = [...docs.matchAll(/^\| `(API_WIRING[A-Z_]*)` +\| (.+?) +\|$/gm)];
    expect(rows.map((r) => r[1]).sort()).toEqual(declared);
    expect(rows.map((r) => r[1])).toEqual([...rows.map((r) => r[1])].sort());
    for (const row of rows) expect(row[2]!.length).toBeGreaterThan(20);
  });

  it('every code is used by core (one code per kind of mistake, none left over)', () => {
    const used = codesOf(
      sourceFiles(src)
        .filter((file) => !file.endsWith('wiring-codes.ts'))
        .map((file) => readFileSync(file, 'utf8'))
        .join('\n'),
    );
    expect(used).toEqual(declared);
    expect(declared.length).toBeGreaterThan(25);
  });
});

describe('WiringError fields', () => {
  it('a coded error still equals one built from its message (assertions written before codes hold)', () => {
    const call = () => Endpoint('/healthz', { nom: 'x' } as object);
    const message = `Endpoint('/healthz', …): unknown option "nom". Fix: use only name, ref, meta.`;
    expect(call).toThrow(new WiringError(message));
    expect(expectWiringError(call, 'API_WIRING_UNKNOWN_OPTION', "Endpoint('/healthz', …)").fix).toBe(
      'use only name, ref, meta',
    );
  });

  it('reads the parts back from a plain message, and keeps the whole message as the problem otherwise', () => {
    const plain = new WiringError('no colon here');
    expect([plain.code, plain.where, plain.problem, plain.fix]).toEqual([
      'API_WIRING',
      '',
      'no colon here',
      '',
    ]);
    const noFix = new WiringError('meta: GET /x is taken');
    expect([noFix.where, noFix.problem, noFix.fix]).toEqual(['meta', 'GET /x is taken', '']);
    const built = wiringError('API_WIRING_SOURCE', 'Me.get', 'no "user"', 'mount with auth', { cause: 1 });
    expect([built.message, built.cause]).toEqual(['Me.get: no "user". Fix: mount with auth.', 1]);
  });
});
