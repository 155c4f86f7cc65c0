/**
 * A startup configuration mistake, raised before the app serves any request.
 *
 * The message names the class, the operation and the fix.
 *
 * @example
 * throw new WiringError('WidgetResource.readOne: path field "widget_id" has a default; remove it.');
 */
export class WiringError extends TypeError {
  override readonly name: string = 'WiringError';
}

/** Formats `Owner.operation: problem. Fix: fix` consistently for every wiring message. */
export function wiringMessage(where: string, problem: string, fix: string): string {
  return `${where}: ${problem}. Fix: ${fix}.`;
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
