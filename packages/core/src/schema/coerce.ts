import { arrayItem, isArray, scalarOf, type Scalar, type SchemaNode } from './introspect';

/** Converts one string from a query, path, header or cookie to what the schema asks for. */
export type Coercer = (raw: string) => unknown;

function toNumber(raw: string): unknown {
  // Number('') is 0 and Number(' 1') is 1: only accept what a JSON number would look like.
  const c = raw.charCodeAt(0);
  if (raw.length === 0 || c === 32 || raw.charCodeAt(raw.length - 1) === 32) return raw;
  const n = Number(raw);
  return Number.isNaN(n) || raw === 'Infinity' || raw === '-Infinity' || raw.startsWith('0x') ? raw : n;
}

function toBoolean(raw: string): unknown {
  return raw === 'true' ? true : raw === 'false' ? false : raw;
}

function toBigint(raw: string): unknown {
  try {
    return BigInt(raw);
  } catch {
    return raw;
  }
}

const identity: Coercer = (raw) => raw;

export function coercerFor(scalar: Scalar): Coercer {
  switch (scalar) {
    case 'number':
      return toNumber;
    case 'boolean':
      return toBoolean;
    case 'bigint':
      return toBigint;
    case 'string':
    case 'unknown':
      return identity;
  }
}

/** How one field of a string source is decoded: a scalar coercer, or a collector of repeats. */
export interface FieldCoercion {
  readonly many: boolean;
  readonly coerce: Coercer;
}

export function fieldCoercion(schema: SchemaNode): FieldCoercion {
  if (isArray(schema)) {
    const item = arrayItem(schema);
    return { many: true, coerce: coercerFor(item ? scalarOf(item) : 'unknown') };
  }
  return { many: false, coerce: coercerFor(scalarOf(schema)) };
}
