import type * as v from 'valibot';
import type { SchemaNode } from './introspect';

/**
 * The failure side of the compiled validators (`fast-validate.ts`): when the compiled check
 * refuses a value, an explainer finds the issues valibot's `safeParse` (with `abortEarly: false`)
 * would report, without running valibot: no output objects, no datasets, and none of the text
 * valibot builds for each issue and core never sends (`received`, which quotes the submitted
 * value, and its `message`). Everything an issue needs from the schema (its kind, type and
 * `expects`) is taken at wiring; a failure costs about what the successful check costs.
 *
 * The issues carry what `toErrorReason` reads (`kind`, `type`, `input`, `expected`, `path` with
 * each item's `key` and `value`), in valibot's order. `received` and `message` are empty: no
 * consumer of core's issues reads them (the 400/422 text is built from the schema's side only).
 *
 * Covers the compiled subset (objects, arrays, strings, numbers, booleans, literals, picklists,
 * optional/nullable/nullish wrappers, and the length, range, integer, finite and regex checks);
 * anything else has no explainer and valibot explains it. At run time an explainer gives up
 * (returns undefined) where valibot's answer could differ: an array where an object is expected
 * (core refuses it after valibot, with its own issue), a default computed by a function, or no
 * issue found (valibot then decides: a value the compiled check refuses and valibot accepts, such
 * as an integer past 2^53, is refused after valibot by core's own checks).
 */
export type Explainer = (input: unknown) => v.BaseIssue<unknown>[] | undefined;

type PathItem = { type: string; origin: 'key' | 'value'; input: unknown; key: unknown; value: unknown };
type Issue = v.BaseIssue<unknown>;

/** What one explain step hands back: whether the value is typed (valibot's `dataset.typed`). */
class Run {
  issues: Issue[] = [];
  /** Set when valibot's answer could differ from ours: the caller asks valibot. */
  gaveUp = false;
}

/** Explains `value`: pushes its issues (paths relative to it) and returns whether it is typed. */
type Step = (value: unknown, run: Run, from: number) => boolean;

interface Action {
  readonly kind: string;
  readonly type: string;
  readonly expects?: string | null;
  readonly requirement?: unknown;
}

type Node = SchemaNode & {
  readonly async?: boolean;
  readonly expects?: string;
  readonly fallback?: unknown;
  readonly pipe?: readonly Action[];
  readonly options?: readonly unknown[];
};

function issue(kind: 'schema' | 'validation', type: string, input: unknown, expected: string | null): Issue {
  return {
    kind,
    type,
    input,
    expected,
    received: '',
    message: '',
    path: undefined,
  };
}

/** Prefixes the path item to the issues pushed since `from` (valibot builds paths inside out). */
function within(run: Run, from: number, item: PathItem): void {
  const issues = run.issues;
  for (let i = from; i < issues.length; i++) {
    const found = issues[i] as { path: PathItem[] | undefined };
    if (found.path === undefined) found.path = [item];
    else found.path.unshift(item);
  }
}

/** A validation action's "fails" test, as valibot's action decides it; undefined when unsupported. */
function failsTest(action: Action): ((value: never) => boolean) | undefined {
  const r = action.requirement;
  switch (action.type) {
    case 'min_length':
      return (x: { length: number }) => x.length < (r as number);
    case 'max_length':
      return (x: { length: number }) => x.length > (r as number);
    case 'length':
      return (x: { length: number }) => x.length !== r;
    case 'non_empty':
      return (x: { length: number }) => x.length === 0;
    case 'min_value':
      return (x: number) => !(x >= (r as number));
    case 'max_value':
      return (x: number) => !(x <= (r as number));
    case 'integer':
    case 'safe_integer':
    case 'finite':
      // valibot's own requirement function (Number.isInteger, Number.isSafeInteger, Number.isFinite).
      return typeof r === 'function' ? (x: unknown) => !(r as (x: unknown) => boolean)(x) : undefined;
    case 'regex':
      // valibot tests without resetting `lastIndex`: a stateful (g/y) pattern is left to valibot.
      return r instanceof RegExp && !r.global && !r.sticky ? (x: string) => !r.test(x) : undefined;
    default:
      return undefined;
  }
}

/** The checks of a pipe after its schema, each with its issue's type and expectation. */
function pipeChecks(
  node: Node,
): { type: string; expected: string | null; fails: (x: never) => boolean }[] | undefined {
  const checks = [];
  for (const action of ((node.pipe ?? []) as readonly Action[]).slice(1)) {
    if (action.kind === 'metadata') continue;
    if (action.kind !== 'validation') return undefined;
    const fails = failsTest(action);
    if (fails === undefined) return undefined;
    checks.push({ type: action.type, expected: action.expects ?? null, fails });
  }
  return checks;
}

/** The type test of a schema node itself (valibot's), or undefined when it is not one we explain. */
function typeTest(node: Node): ((x: unknown) => boolean) | undefined {
  switch (node.type) {
    case 'string':
      return (x) => typeof x === 'string';
    case 'number':
      return (x) => typeof x === 'number' && !Number.isNaN(x);
    case 'boolean':
      return (x) => typeof x === 'boolean';
    case 'literal': {
      const literal = node.literal;
      // valibot's SameValueZero (NaN equals NaN; 0 equals -0).
      return (x) => x === literal || (x !== x && literal !== literal);
    }
    case 'picklist': {
      const options = node.options ?? [];
      return (x) => options.includes(x);
    }
    default:
      return undefined;
  }
}

function compile(schema: SchemaNode): Step | undefined {
  const node = schema as Node;
  if (node.async || node.fallback !== undefined || typeof node.expects !== 'string') return undefined;
  const checks = pipeChecks(node);
  if (checks === undefined) return undefined;
  const expects = node.expects;
  // The pipe's validations run on a typed value only, each one (abortEarly and abortPipeEarly off).
  const validate = (value: unknown, run: Run): boolean => {
    for (const check of checks)
      if (check.fails(value as never))
        run.issues.push(issue('validation', check.type, value, check.expected));
    return true;
  };
  const test = typeTest(node);
  if (test !== undefined)
    return (value, run) => {
      if (!test(value)) {
        run.issues.push(issue('schema', node.type, value, expects));
        return false;
      }
      return validate(value, run);
    };
  switch (node.type) {
    case 'optional':
    case 'nullable':
    case 'nullish': {
      const inner = node.wrapped ? compile(node.wrapped) : undefined;
      if (inner === undefined || checks.length > 0) return undefined;
      const type = node.type;
      const fallback = node.default;
      const empty = (x: unknown): boolean =>
        type === 'optional' ? x === undefined : type === 'nullable' ? x === null : x == null;
      return (value, run, from) => {
        if (!empty(value)) return inner(value, run, from);
        if (fallback === undefined) return true;
        if (typeof fallback === 'function') {
          // A computed default may differ from call to call: valibot decides.
          run.gaveUp = true;
          return true;
        }
        return empty(fallback) || inner(fallback, run, from);
      };
    }
    case 'array': {
      const item = node.item ? compile(node.item) : undefined;
      if (item === undefined) return undefined;
      return (value, run) => {
        if (!Array.isArray(value)) {
          run.issues.push(issue('schema', 'array', value, expects));
          return false;
        }
        let typed = true;
        for (let key = 0; key < value.length; key++) {
          const from = run.issues.length;
          const element: unknown = value[key];
          if (!item(element, run, from)) typed = false;
          if (run.issues.length > from)
            within(run, from, { type: 'array', origin: 'value', input: value, key, value: element });
        }
        return typed ? validate(value, run) : false;
      };
    }
    case 'object': {
      if (checks.length > 0) return undefined;
      const fields: { key: string; step: Step; optional: boolean; fallback: unknown }[] = [];
      for (const key in node.entries ?? {}) {
        const entry = node.entries![key]! as Node;
        const step = compile(entry);
        if (step === undefined) return undefined;
        const t = entry.type;
        const optional = t === 'optional' || t === 'nullish' || t === 'exact_optional';
        fields.push({ key, step, optional, fallback: optional ? entry.default : undefined });
      }
      return (value, run) => {
        // valibot reads an array as an object; core refuses it after valibot, with its own issue.
        if (Array.isArray(value)) {
          run.gaveUp = true;
          return false;
        }
        if (!value || typeof value !== 'object') {
          run.issues.push(issue('schema', 'object', value, expects));
          return false;
        }
        const input = value as Record<string, unknown>;
        let typed = true;
        for (const field of fields) {
          const key = field.key;
          // One keyed load for a present field; `in` only tells an absent key from an undefined value.
          const found = input[key];
          const present = found !== undefined || key in input;
          if (present || (field.optional && field.fallback !== undefined)) {
            if (!present && typeof field.fallback === 'function') {
              // A computed default may differ from call to call: valibot decides.
              run.gaveUp = true;
              return false;
            }
            const from = run.issues.length;
            // An absent key with a default: valibot checks the default in its place.
            const item: unknown = present ? found : field.fallback;
            if (!field.step(item, run, from)) typed = false;
            if (run.issues.length > from)
              within(run, from, { type: 'object', origin: 'value', input, key, value: item });
          } else if (!field.optional) {
            const missing = issue('schema', 'object', undefined, `"${key}"`);
            (missing as { path: PathItem[] }).path = [
              { type: 'object', origin: 'key', input, key, value: found },
            ];
            run.issues.push(missing);
            typed = false;
          }
        }
        return typed;
      };
    }
    default:
      return undefined;
  }
}

/**
 * Compiles the explainer of a schema in the compiled subset, or returns undefined (valibot
 * explains that schema's failures).
 */
export function compileExplainer(schema: v.GenericSchema): Explainer | undefined {
  const step = compile(schema);
  if (step === undefined) return undefined;
  return (input) => {
    const run = new Run();
    step(input, run, 0);
    return run.gaveUp || run.issues.length === 0 ? undefined : run.issues;
  };
}
