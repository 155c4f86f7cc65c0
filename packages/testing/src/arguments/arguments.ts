import type { WiringError } from '@api/core';
import { checkKnownKeys, wiringError } from '@api/core/extension';

/**
 * A short, safe description of a value for an error message: its kind and, for small scalars,
 * the value itself (never the contents of objects, which may hold secrets).
 *
 * @param value - Any value.
 * @example
 * describeValue(undefined); // 'undefined'
 * describeValue(class App {}); // 'the class App'
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return value.length > 40 ? `a string (${value.length} characters)` : JSON.stringify(value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'symbol':
      return 'a symbol';
    case 'function':
      return /^class[\s{]/.test(Function.prototype.toString.call(value))
        ? `the class ${value.name || '(anonymous)'}`
        : `a function${value.name ? ` (${value.name})` : ''}`;
    case 'object':
      break;
  }
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor
    ?.name;
  return name && name !== 'Object' ? `an instance of ${name}` : 'an object';
}

/**
 * Builds the `WiringError` for a wrong argument: `Where: expected …, got …. Fix: ….`
 *
 * @param where - The class and operation (`TestClient`, `TestClient.websocket`).
 * @param expected - What the argument must be.
 * @param got - The value received (described, not printed).
 * @param fix - How to fix the call.
 */
export function wrongArgument(where: string, expected: string, got: unknown, fix: string): WiringError {
  return wiringError(
    'API_WIRING_INVALID_ARGUMENT',
    where,
    `expected ${expected}, got ${describeValue(got)}`,
    fix,
  );
}

/** True for a plain object (`{…}` or `Object.create(null)`), the shape every options argument takes. */
export function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Checks an options argument: `undefined` or a plain object whose keys are all known.
 *
 * @param where - The class and operation, for the message.
 * @param options - The argument.
 * @param known - The option names.
 * @returns The options (an empty object for `undefined`).
 */
export function checkOptions(
  where: string,
  options: unknown,
  known: readonly string[],
): Readonly<Record<string, unknown>> {
  if (options === undefined) return {};
  const list = known.map((k) => `\`${k}\``).join(', ');
  if (!isPlainObject(options))
    throw wrongArgument(where, `an options object (${list})`, options, 'pass a plain object literal');
  checkKnownKeys(where, options, known, 'names are case-sensitive');
  return options;
}
