// A Standard Schema's issues as @api's 400/422 reason: field paths from `issue.path`, messages built
// from the schema's side only. zod and ArkType put submitted values into their messages (ArkType
// `must be "a" or "b" (was "<script>")`), so an issue's `message` never reaches a client.
import type { StandardSchemaV1 } from '../contract/standard-schema';
import type { ErrorReasonValue, ReasonIssue, SourceLabel } from './issues';
import { kindOf } from './response-shape-error';

type Key = PropertyKey;
const MISSING = Symbol('missing');

function keysOf(issue: StandardSchemaV1.Issue): Key[] {
  const keys: Key[] = [];
  for (const segment of issue.path ?? [])
    keys.push(typeof segment === 'object' && segment !== null ? (segment as { key: Key }).key : segment);
  return keys;
}

function valueAt(input: unknown, keys: readonly Key[]): unknown {
  let value = input;
  for (const key of keys) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return MISSING;
    value = (value as Record<Key, unknown>)[key];
  }
  return value;
}

function formatPath(source: SourceLabel, keys: readonly Key[]): string {
  if (source === 'json') {
    let out = '$';
    for (const key of keys) {
      if (typeof key === 'number') out += `[${key}]`;
      else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
      else out += `[${JSON.stringify(String(key))}]`;
    }
    return out;
  }
  const label = source === 'query' ? 'query parameter' : source;
  return `${label} ${keys.map(String).join('.')}`.trim();
}

type Loose = Record<string, unknown>;
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
const scalarText = (x: unknown): string | undefined =>
  typeof x === 'number' || typeof x === 'bigint' ? String(x) : undefined;

/** What the schema expected, from fields zod and ArkType set from the schema (never the value). */
function expectation(issue: Loose): string | undefined {
  const code = str(issue.code);
  // zod 4
  if (code === 'invalid_type') return str(issue.expected);
  if (code === 'invalid_value' && Array.isArray(issue.values))
    return (issue.values as unknown[]).map((x) => JSON.stringify(x) ?? String(x)).join(' | ');
  if (code === 'invalid_union') return 'one of the union members';
  if (code === 'too_small' || code === 'too_big') {
    const bound = scalarText(code === 'too_small' ? issue.minimum : issue.maximum);
    const op = code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
    const what = issue.origin === 'string' ? 'length ' : issue.origin === 'array' ? 'size ' : '';
    return bound === undefined ? undefined : `${str(issue.origin) ?? 'value'} of ${what}${op} ${bound}`;
  }
  if (code === 'invalid_format') return str(issue.format) && `${str(issue.format)} format`;
  if (code === 'not_multiple_of')
    return scalarText(issue.divisor) && `a multiple of ${scalarText(issue.divisor)}`;
  // ArkType 2: `description` is the schema's; a union's options are its branches' descriptions.
  if (' arkKind' in issue) {
    if (code === 'union' && Array.isArray(issue.errors)) {
      const parts = (issue.errors as Loose[]).map((e) =>
        e.code === 'unit' || e.code === 'domain' || e.code === 'proto' ? str(e.description) : undefined,
      );
      return parts.every((p) => p !== undefined) ? parts.join(' or ') : undefined;
    }
    if (code === 'predicate' || code === 'union' || code === 'intersection') return undefined;
    return str(issue.description);
  }
  return undefined;
}

function message(source: SourceLabel, issue: Loose, value: unknown): string {
  if (value === MISSING || (value === undefined && issue.code !== 'custom')) return 'Missing required field';
  if (issue.code === 'unrecognized_keys') return 'Unexpected field';
  const expected = expectation(issue);
  if (expected === undefined) return 'Invalid value';
  // Query, header, cookie, form and path values arrive as text: say the text did not read as expected.
  if (source !== 'json' && typeof value === 'string') return `Expected ${expected}, got other text`;
  return `Expected ${expected}, got ${kindOf(value)}`;
}

/** One issue's path keys, the schema's expectation (if known) and the kind of value found there. */
export function describeIssue(
  issue: StandardSchemaV1.Issue,
  input: unknown,
): { readonly keys: readonly PropertyKey[]; readonly expected: string; readonly received: string } {
  const keys = keysOf(issue);
  const value = valueAt(input, keys);
  return {
    keys,
    expected: expectation(issue as unknown as Loose) ?? 'a valid value',
    received: value === MISSING ? 'nothing (missing)' : kindOf(value),
  };
}

/**
 * Turns a Standard Schema's issues into an `ErrorReason` (the first failure as `reason`, all as
 * `issues`): paths from `issue.path`, messages from the schema's expectation and the value's kind.
 * `rename` maps a first path key (a header field) to its wire name.
 */
export function standardReason(
  source: SourceLabel,
  issues: readonly StandardSchemaV1.Issue[],
  input: unknown,
  rename?: ReadonlyMap<string, string>,
): ErrorReasonValue {
  const list: ReasonIssue[] = [];
  for (const issue of issues) {
    const loose = issue as unknown as Loose;
    const keys = keysOf(issue);
    if (loose.code === 'unrecognized_keys' && Array.isArray(loose.keys)) {
      for (const key of loose.keys as Key[])
        list.push({ path: formatPath(source, [...keys, key]), message: 'Unexpected field' });
      continue;
    }
    const value = valueAt(input, keys);
    const wire = rename && typeof keys[0] === 'string' ? rename.get(keys[0]) : undefined;
    const shown = wire === undefined ? keys : [wire, ...keys.slice(1)];
    list.push({ path: formatPath(source, shown), message: message(source, loose, value) });
  }
  const first = list[0] ?? { path: source === 'json' ? '$' : source, message: 'Invalid value' };
  return { reason: `${first.message} at \`${first.path}\``, issues: list };
}
