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

/** A literal as valibot words it in `expected` (strings quoted, other scalars as written). */
function literalText(x: unknown): string {
  if (typeof x === 'string') return `"${x}"`;
  if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') return String(x);
  if (x === null || x === undefined || typeof x === 'symbol') return String(x);
  return 'Object';
}

/** valibot's `expected` for a type name: objects and arrays (and other classes) capitalized. */
const VALIBOT_TYPE: Readonly<Record<string, string>> = {
  int: 'number',
  object: 'Object',
  array: 'Array',
  date: 'Date',
  set: 'Set',
  map: 'Map',
  file: 'File',
  blob: 'Blob',
  promise: 'Promise',
  function: 'Function',
};
const typeName = (t: string): string => VALIBOT_TYPE[t] ?? t;

/** valibot joins several expectations as `(a | b)`, one as itself. */
const joined = (parts: readonly string[]): string =>
  parts.length === 1 ? parts[0]! : `(${[...new Set(parts)].join(' | ')})`;

/** valibot's wording of a failed validation action (`Invalid min length: expected >=1`). */
const action = (type: string, expected?: string): string =>
  expected === undefined ? `Invalid ${type}` : `Invalid ${type}: expected ${expected}`;

/** The integer-range message core words for valibot's `v.integer()` (see `safe-integers.ts`). */
const UNSAFE_INTEGER = 'Invalid safe integer: expected an integer within ±(2^53 − 1)';

/** zod formats whose valibot action of the same meaning has no requirement (`Invalid email`). */
const ZOD_FORMATS: Readonly<Record<string, string>> = {
  email: 'email',
  url: 'url',
  uuid: 'uuid',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
  cuid2: 'cuid2',
  ulid: 'ulid',
  nanoid: 'nanoid',
  emoji: 'emoji',
  base64: 'base64',
  date: 'iso date',
  datetime: 'iso timestamp',
  time: 'iso time',
};

/** A bound as valibot prints it: dates as ISO text, numbers and bigints as written. */
function boundText(origin: unknown, bound: unknown): string | undefined {
  if (origin === 'date' && typeof bound === 'number') return new Date(bound).toJSON() ?? undefined;
  return scalarText(bound);
}

/**
 * zod 4's constraint issues in valibot's wording for the same constraint (a min length is
 * `Invalid min length: expected >=1` from both), read from fields zod sets from the schema.
 */
function zodConstraint(issue: Loose, value: unknown): string | undefined {
  const code = issue.code;
  if (code === 'too_small' || code === 'too_big') {
    const small = code === 'too_small';
    const origin = issue.origin;
    const bound = boundText(origin, small ? issue.minimum : issue.maximum);
    if (bound === undefined) return undefined;
    if (origin === 'int' && bound === String(small ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER))
      return UNSAFE_INTEGER;
    const inclusive = issue.inclusive === true;
    if (origin === 'string' || origin === 'array') {
      if (issue.exact === true) return action('length', bound);
      if (!inclusive) return undefined;
      return action(small ? 'min length' : 'max length', `${small ? '>=' : '<='}${bound}`);
    }
    if (origin === 'set' || origin === 'map' || origin === 'file') {
      if (!inclusive) return undefined;
      return action(small ? 'min size' : 'max size', `${small ? '>=' : '<='}${bound}`);
    }
    if (origin === 'number' || origin === 'int' || origin === 'bigint' || origin === 'date') {
      if (small) return inclusive ? action('min value', `>=${bound}`) : action('gt value', `>${bound}`);
      return inclusive ? action('max value', `<=${bound}`) : action('lt value', `<${bound}`);
    }
    return undefined;
  }
  if (code === 'invalid_type' && issue.expected === 'int' && typeof value === 'number')
    return action('integer');
  if (code === 'not_multiple_of') {
    const divisor = scalarText(issue.divisor);
    return divisor === undefined ? undefined : action('multiple of', `%${divisor}`);
  }
  if (code === 'invalid_format') {
    const format = str(issue.format);
    if (format === 'regex') return str(issue.pattern) && action('regex', str(issue.pattern));
    if (format === 'starts_with')
      return str(issue.prefix) && action('starts with', literalText(issue.prefix));
    if (format === 'ends_with') return str(issue.suffix) && action('ends with', literalText(issue.suffix));
    if (format === 'includes') return str(issue.includes) && action('includes', literalText(issue.includes));
    const same = format === undefined ? undefined : ZOD_FORMATS[format];
    return same && action(same);
  }
  return undefined;
}

/** ArkType's descriptions of the string keywords that mean a valibot action without a requirement. */
const ARK_KEYWORDS: Readonly<Record<string, string>> = {
  'an email address': 'email',
  'a UUID': 'uuid',
  'a URL string': 'url',
};

/** ArkType 2's constraint issues in valibot's wording, read from `code`, `rule`, `exclusive`, `flags`. */
function arkConstraint(issue: Loose): string | undefined {
  const code = issue.code;
  const keyword = str(issue.description) === undefined ? undefined : ARK_KEYWORDS[str(issue.description)!];
  if (keyword !== undefined && (code === 'pattern' || code === 'predicate')) return action(keyword);
  if (code === 'pattern')
    return str(issue.rule) && action('regex', `/${str(issue.rule)}/${str(issue.flags) ?? ''}`);
  if (code === 'after' || code === 'before') {
    const rule = issue.rule;
    const time =
      rule instanceof Date || typeof rule === 'string' || typeof rule === 'number'
        ? new Date(rule)
        : undefined;
    const iso = time && !Number.isNaN(time.getTime()) ? time.toJSON() : undefined;
    if (iso === undefined) return undefined;
    return code === 'after' ? action('min value', `>=${iso}`) : action('max value', `<=${iso}`);
  }
  const rule = scalarText(issue.rule);
  if (rule === undefined) return undefined;
  const exclusive = issue.exclusive === true;
  switch (code) {
    case 'minLength':
      return action('min length', `>=${rule}`);
    case 'maxLength':
      return action('max length', `<=${rule}`);
    case 'exactLength':
      return action('length', rule);
    case 'min':
      return exclusive ? action('gt value', `>${rule}`) : action('min value', `>=${rule}`);
    case 'max':
      return exclusive ? action('lt value', `<${rule}`) : action('max value', `<=${rule}`);
    case 'divisor':
      return rule === '1' ? action('integer') : action('multiple of', `%${rule}`);
    default:
      return undefined;
  }
}

/** An ArkType branch's expectation as valibot words a type or literal (`string`, `Object`, `"a"`). */
function arkExpected(issue: Loose): string | undefined {
  if (issue.code === 'domain') return str(issue.domain) && typeName(str(issue.domain)!);
  if (issue.code === 'proto') {
    const proto = issue.proto as { name?: unknown } | undefined;
    return typeof proto === 'function' && typeof proto.name === 'string'
      ? proto.name
      : str(issue.description);
  }
  if (issue.code === 'unit') return literalText(issue.unit);
  return undefined;
}

/** What the schema expected, from fields zod and ArkType set from the schema (never the value). */
function expectation(issue: Loose): string | undefined {
  const code = str(issue.code);
  // zod 4
  if (code === 'invalid_type') return str(issue.expected) && typeName(str(issue.expected)!);
  if (code === 'invalid_value' && Array.isArray(issue.values))
    return joined((issue.values as unknown[]).map(literalText));
  if (code === 'invalid_union') {
    // Each member failing on its own type at the same place: valibot's `(string | number)`.
    const members = Array.isArray(issue.errors) ? (issue.errors as unknown[]) : [];
    const parts = members.map((list) => {
      const only = Array.isArray(list) && list.length === 1 ? (list[0] as Loose) : undefined;
      const here = only && Array.isArray(only.path) && only.path.length === 0;
      return here && only.code === 'invalid_type' ? str(only.expected) : undefined;
    });
    return parts.length > 0 && parts.every((p) => p !== undefined)
      ? joined(parts.map((p) => typeName(p)))
      : 'one of the union members';
  }
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
      const parts = (issue.errors as Loose[]).map(arkExpected);
      if (!parts.every((p) => p !== undefined)) return undefined;
      const set = new Set(parts);
      return set.size === 2 && set.has('true') && set.has('false') ? 'boolean' : joined(parts);
    }
    if (code === 'predicate' || code === 'union' || code === 'intersection') return undefined;
    return arkExpected(issue) ?? str(issue.description);
  }
  return undefined;
}

/**
 * The message of one issue: valibot's wording of the same constraint where the issue says which
 * (`Invalid max value: expected <=100`), else `Expected <type>, got <kind>`, else `Invalid value`.
 * Runs only on a failure: the success path never reaches it.
 */
function message(source: SourceLabel, issue: Loose, value: unknown): string {
  if (value === MISSING || (value === undefined && issue.code !== 'custom')) return 'Missing required field';
  if (issue.code === 'unrecognized_keys') return 'Unexpected field';
  const ark = ' arkKind' in issue;
  // ArkType's undeclared key under `'+': 'reject'`: its `expected` is the fixed word "removed".
  if (ark && issue.code === 'predicate' && issue.expected === 'removed') return 'Unexpected field';
  const constraint = ark ? arkConstraint(issue) : zodConstraint(issue, value);
  if (constraint !== undefined) return constraint;
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
