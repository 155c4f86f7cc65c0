// The one error a strict serializer throws: a handler's value does not match its declared response
// schema. Only the failure path comes here.

/**
 * A handler's value does not match its declared response schema (strict serializers only): the
 * response is a 500, logged with the JSON path of the mismatch. Never a partial or wrong-shaped body.
 */
export class ResponseShapeError extends Error {
  /** JSON path of the mismatch, e.g. `$.items[2].priceCents`. */
  path: string;
  constructor(
    readonly expected: string,
    readonly received: string,
  ) {
    super();
    this.path = '$';
  }
  override get message(): string {
    return (
      `the value at \`${this.path}\` does not match the declared ` +
      `response schema (expected ${this.expected}, got ${this.received})`
    );
  }
  /** Prepends a key as the error travels up through objects and arrays. */
  at(key: string | number): this {
    const tail = this.path.slice(1);
    this.path =
      typeof key === 'number'
        ? `$[${key}]${tail}`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `$.${key}${tail}`
          : `$[${JSON.stringify(key)}]${tail}`;
    return this;
  }
}

/** A value's JSON kind for shape messages: `null`, `array`, or its `typeof`. */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
export function mismatch(expected: string, value: unknown): never {
  throw new ResponseShapeError(expected, kindOf(value));
}
/** What a value that is not the expected literal is, without quoting it (it may be user data). */
export function otherThan(literal: unknown, value: unknown): string {
  const kind = kindOf(value);
  return kind === typeof literal ? `another ${kind}` : kind;
}
