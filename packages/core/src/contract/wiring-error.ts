import type { WiringErrorCode } from './wiring-codes';

export type { WiringErrorCode, WiringErrorCodes } from './wiring-codes';

/** The parts of a `WiringError`: its stable code and the three parts of its message. */
export interface WiringErrorParts {
  /** What kind of mistake it is (`API_WIRING_*`, see docs/errors.md); tests and tools match this. */
  readonly code: WiringErrorCode;
  /** Who made the mistake: `Class.operation`, the factory call, the extension. */
  readonly where: string;
  /** What is wrong, without a trailing period. */
  readonly problem: string;
  /** What to write instead, without a trailing period. */
  readonly fix: string;
}

/**
 * A startup configuration mistake, raised before the app serves any request.
 *
 * The message is `where: problem. Fix: fix.`; `code` names the kind of mistake (stable across
 * wording changes, so tests and tools match it, not the prose). The one-string constructor is kept
 * for extensions: such an error has the generic code `'API_WIRING'`.
 *
 * @example
 * throw new WiringError({
 *   code: 'API_WIRING_PATH_BINDING',
 *   where: 'WidgetResource.readOne',
 *   problem: 'path field "widget_id" has a default',
 *   fix: 'remove it',
 * });
 */
export class WiringError extends TypeError {
  override readonly name: string = 'WiringError';
  // Accessors, not own fields: an error compares (toThrow(new WiringError(message)), toEqual) and
  // prints as it did before codes existed.
  readonly #parts: WiringErrorParts;

  constructor(message: string | WiringErrorParts, options?: ErrorOptions) {
    const parts = typeof message === 'string' ? partsOf(message) : message;
    super(
      typeof message === 'string' ? message : wiringMessage(parts.where, parts.problem, parts.fix),
      options,
    );
    this.#parts = parts;
  }

  /** The kind of mistake (`'API_WIRING'` when built from a plain message). */
  get code(): WiringErrorCode {
    return this.#parts.code;
  }

  /** Who made the mistake (the text before the first `": "` when built from a plain message). */
  get where(): string {
    return this.#parts.where;
  }

  /** What is wrong (the rest of a plain message when it has no "Fix:"). */
  get problem(): string {
    return this.#parts.problem;
  }

  /** What to write instead (empty when a plain message has no "Fix:"). */
  get fix(): string {
    return this.#parts.fix;
  }
}

/**
 * A `WiringError` from its code and the three parts of its message (`where: problem. Fix: fix.`):
 * the one way core builds them.
 *
 * @example
 * throw wiringError('API_WIRING_UNKNOWN_OPTION', 'serve(App, options)', 'unknown option "prot"', 'use port');
 */
export function wiringError(
  code: WiringErrorCode,
  where: string,
  problem: string,
  fix: string,
  options?: ErrorOptions,
): WiringError {
  return new WiringError({ code, where, problem, fix }, options);
}

/** Formats `Owner.operation: problem. Fix: fix.` consistently for every wiring message. */
export function wiringMessage(where: string, problem: string, fix: string): string {
  return `${where}: ${problem}. Fix: ${fix}.`;
}

/** A plain message read back into parts, as far as it follows `where: problem. Fix: fix.`. */
function partsOf(message: string): WiringErrorParts {
  const colon = message.indexOf(': ');
  const fixAt = message.lastIndexOf('. Fix: ');
  if (colon < 0) return { code: 'API_WIRING', where: '', problem: message, fix: '' };
  if (fixAt < colon)
    return { code: 'API_WIRING', where: message.slice(0, colon), problem: message.slice(colon + 2), fix: '' };
  const fix = message.slice(fixAt + 7);
  return {
    code: 'API_WIRING',
    where: message.slice(0, colon),
    problem: message.slice(colon + 2, fixAt),
    fix: fix.endsWith('.') ? fix.slice(0, -1) : fix,
  };
}

/** A short description of a wrong argument for wiring messages (its kind, never its contents). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return `a function${value.name ? ` (${value.name})` : ''}`;
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== 'Object' ? `an instance of ${name}` : 'an object';
  }
  if (value === '') return 'an empty string';
  return `a ${typeof value}`;
}

/** True for a valibot schema object (what every `schema` argument must be). */
export function isSchema(value: unknown): value is { readonly kind: 'schema'; readonly type: string } {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'schema';
}

/** True for a valibot object schema (a `Struct` or `v.object(...)`). */
export function isObjectSchema(value: unknown): boolean {
  if (!isSchema(value)) return false;
  const type = value.type;
  return type === 'object' || type === 'strict_object' || type === 'loose_object';
}
