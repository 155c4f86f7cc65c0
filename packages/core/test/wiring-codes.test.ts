// The WiringError codes are a contract (issue 28): the type, the docs table and the source stay in
// step — every code documented with its meaning, none documented that does not exist, none unused.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wiringError } from '../src/extension';
import { Endpoint, WiringError } from '../src/index';
import { expectWiringError } from './expect-wiring-error';

const packages = join(import.meta.dirname, '../..');
const src = join(packages, 'core/src');
const docs = readFileSync(join(import.meta.dirname, '../../../docs/errors.md'), 'utf8');
const codesOf = (text: string): string[] =>
  [...new Set(text.match(/\bAPI_WIRING(?:_[A-Z]+)*\b/g) ?? [])].sort();
/** The keys of a `WiringErrorCodes` declaration (core's, or a package's augmentation). */
const declaredIn = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^ {2,4}(API_WIRING\w*): true;$/gm)].map((m) => m[1]!).sort();
/** The rows of the docs table under `## <heading>`: code and meaning. */
function docRows(heading: string): [string, string][] {
  const start = docs.indexOf(`\n## ${heading}\n`);
  if (start < 0) return [];
  const end = docs.indexOf('\n## ', start + 1);
  const section = docs.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `(API_WIRING[A-Z_]*)` +\| (.+?) +\|$/gm)].map((r) => [r[1]!, r[2]!]);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

const usedIn = (files: readonly string[]): string[] =>
  codesOf(
    files
      .filter((file) => !file.endsWith('wiring-codes.ts'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n'),
  );

describe('WiringErrorCode', () => {
  const declared = declaredIn(join(src, 'contract/wiring-codes.ts'));

  it('every code has one row in docs/errors.md, and every row is a code', () => {
    const rows = docRows('Codes');
    expect(rows.map((r) => r[0]).sort()).toEqual(declared);
    expect(rows.map((r) => r[0])).toEqual([...rows.map((r) => r[0])].sort());
    for (const row of rows) expect(row[1].length).toBeGreaterThan(20);
  });

  it('every code is used by core (one code per kind of mistake, none left over)', () => {
    expect(usedIn(sourceFiles(src))).toEqual(declared);
    expect(declared.length).toBeGreaterThan(25);
  });
});

// A package's own codes: declared by augmenting WiringErrorCodes in its src/wiring-codes.ts,
// prefixed by its name, each used by its sources and documented under "## @api/<name>".
describe.each(
  readdirSync(packages, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && entry.name !== 'core' && existsSync(join(packages, entry.name, 'src')),
    )
    .map((entry) => entry.name),
)('@api/%s WiringErrors', (name) => {
  const files = sourceFiles(join(packages, name, 'src'));
  const codesFile = join(packages, name, 'src/wiring-codes.ts');
  const own = existsSync(codesFile) ? declaredIn(codesFile) : [];
  const core = declaredIn(join(src, 'contract/wiring-codes.ts'));
  const prefix = `API_WIRING_${name.toUpperCase().replaceAll('-', '_')}_`;

  it('builds every WiringError with a code (no hand-formatted new WiringError(message), no uncoded fail)', () => {
    const offenders = files.filter((file) =>
      /new WiringError\(|\b(?:wiring|ctx)\.fail\(/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it(`uses only core's codes and its own, each own code ${prefix}… used and documented`, () => {
    const used = usedIn(files);
    expect(used.filter((code) => !core.includes(code))).toEqual(own);
    for (const code of own) expect(code.startsWith(prefix)).toBe(true);
    const rows = docRows(`@api/${name}`);
    expect(rows.map((r) => r[0])).toEqual(own);
    for (const row of rows) expect(row[1].length).toBeGreaterThan(20);
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
