import type * as v from 'valibot';
import { kindOf } from './response-shape-error';

/** One failure found while validating a request value. */
export interface ReasonIssue {
  readonly path: string;
  readonly message: string;
}

/** The params of the 400 and 422 errors: names fields and paths, never submitted values. */
export interface ErrorReasonValue {
  readonly reason: string;
  readonly issues: ReasonIssue[];
}

/** Where a value came from: decides how an issue path is spelled. */
export type SourceLabel = 'json' | 'query' | 'header' | 'cookie' | 'form' | 'path';

function formatPath(source: SourceLabel, issue: v.BaseIssue<unknown>): string {
  const keys = issue.path ?? [];
  if (source === 'json') {
    let out = '$';
    for (const item of keys) {
      const key = item.key;
      if (typeof key === 'number') out += `[${key}]`;
      else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += `.${key}`;
      else out += `[${JSON.stringify(String(key))}]`;
    }
    return out;
  }
  const name = keys.map((k) => String(k.key)).join('.');
  const label = source === 'query' ? 'query parameter' : source;
  return `${label} ${name}`.trim();
}

// Messages are built from the schema's side only (kind, expectation, input *type*); the
// submitted value, which valibot puts into `received` and `message`, never reaches a client.
function formatMessage(source: SourceLabel, issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema') {
    const last = issue.path?.[issue.path.length - 1];
    if (issue.input === undefined && last && last.value === undefined) return 'Missing required field';
    if (issue.type === 'object' || issue.type === 'strict_object') {
      if (issue.input !== undefined && kindOf(issue.input) === 'object') return 'Unexpected field';
    }
    const expected =
      issue.type === 'literal' ||
      issue.type === 'picklist' ||
      issue.type === 'enum' ||
      issue.type === 'union' ||
      issue.type === 'variant'
        ? (issue.expected ?? issue.type)
        : issue.type === 'strict_object' || issue.type === 'loose_object'
          ? 'object'
          : (issue.expected ?? issue.type);
    // Query, header, cookie, form and path values all arrive as text: "got string" would say
    // nothing, so the message says the text did not read as what was expected.
    if (source !== 'json' && typeof issue.input === 'string') return `Expected ${expected}, got other text`;
    return `Expected ${expected}, got ${kindOf(issue.input)}`;
  }
  return checkMessage(issue.type, issue.expected || '');
}

/**
 * A failed check's message by its type and expectation (`min_value`, `>=1888` → `Invalid min value:
 * expected >=1888`), remembered: both come from the schema, so the same few messages repeat, and
 * building one costs a regex replace and a string that is flattened again when it is written.
 */
const checkMessages = new Map<string, Map<string, string>>();

function checkMessage(type: string, expected: string): string {
  let byExpected = checkMessages.get(type);
  let message = byExpected?.get(expected);
  if (message !== undefined) return message;
  const what = type.replace(/_/g, ' ');
  message = expected ? `Invalid ${what}: expected ${expected}` : `Invalid ${what}`;
  // Types and expectations are the schemas' (valibot's and the app's own checks): bounded, but bound them anyway.
  if (byExpected === undefined && checkMessages.size < 256)
    checkMessages.set(type, (byExpected = new Map<string, string>()));
  if (byExpected !== undefined && byExpected.size < 64) byExpected.set(expected, message);
  return message;
}

/**
 * Turns valibot issues into an `ErrorReason`: the first failure as `reason`, all of them as `issues`.
 */
export function toErrorReason(
  source: SourceLabel,
  issues: readonly v.BaseIssue<unknown>[],
): ErrorReasonValue {
  const list: ReasonIssue[] = [];
  for (const issue of issues) {
    list.push({ path: formatPath(source, issue), message: formatMessage(source, issue) });
    // nested issues of a union are represented by the union's own issue
  }
  const first = list[0] ?? { path: source === 'json' ? '$' : source, message: 'Invalid value' };
  return { reason: `${first.message} at \`${first.path}\``, issues: list };
}
