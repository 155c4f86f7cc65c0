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
  const what = checkName(issue.type);
  return issue.expected ? `Invalid ${what}: expected ${issue.expected}` : `Invalid ${what}`;
}

/** A check's type as words (`min_value` → `min value`), remembered: a regex replace per 400/422 otherwise. */
const checkNames = new Map<string, string>();

function checkName(type: string): string {
  let name = checkNames.get(type);
  if (name === undefined) {
    name = type.replace(/_/g, ' ');
    // The types are valibot's and the app's own checks': a bounded set, but bound it anyway.
    if (checkNames.size < 256) checkNames.set(type, name);
  }
  return name;
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
