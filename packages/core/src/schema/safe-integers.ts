import type * as v from 'valibot';
import { unwrap, type SchemaNode } from './introspect';

type PathItem = { readonly key: string | number; readonly value: unknown };
/** Finds the first integer that is not a safe integer in a validated value; its path, or undefined. */
export type UnsafeIntegerFinder = (value: unknown) => PathItem[] | undefined;

/** True for a number schema with `v.integer()` (and no explicit `v.safeInteger()`, which valibot checks itself). */
function isIntegerNumber(schema: SchemaNode): boolean {
  const s = unwrap(schema);
  if (s.type !== 'number') return false;
  const types = (s.pipe ?? []).map((a) => a.type);
  return types.includes('integer') && !types.includes('safe_integer');
}

/**
 * Compiles, at wiring, a check that every `v.integer()` in a schema holds a *safe* integer
 * (|n| ≤ 2^53 − 1): a schema's integer is a safe integer unless the schema says otherwise, so a
 * value past 2^53 is a 422 and is never stored. Undefined when the schema has no integer field.
 */
export function compileUnsafeIntegerFinder(
  schema: v.GenericSchema | SchemaNode,
): UnsafeIntegerFinder | undefined {
  return compile(schema, new Set());
}

function compile(schema: SchemaNode, seen: Set<SchemaNode>): UnsafeIntegerFinder | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  if (isIntegerNumber(schema))
    return (value) => (typeof value === 'number' && !Number.isSafeInteger(value) ? [] : undefined);
  const s = unwrap(schema);
  if (s.type === 'object' || s.type === 'strict_object' || s.type === 'loose_object') {
    const fields: [string, UnsafeIntegerFinder][] = [];
    for (const [key, field] of Object.entries(s.entries ?? {})) {
      const find = compile(field, seen);
      if (find) fields.push([key, find]);
    }
    if (fields.length === 0) return undefined;
    return (value) => {
      if (value === null || typeof value !== 'object') return undefined;
      for (const [key, find] of fields) {
        const item = (value as Record<string, unknown>)[key];
        const path = find(item);
        if (path) return [{ key, value: item }, ...path];
      }
      return undefined;
    };
  }
  if (s.type === 'array' && s.item) {
    const find = compile(s.item, seen);
    if (!find) return undefined;
    return (value) => {
      if (!Array.isArray(value)) return undefined;
      for (let i = 0; i < value.length; i++) {
        const path = find(value[i]);
        if (path) return [{ key: i, value: value[i] }, ...path];
      }
      return undefined;
    };
  }
  return undefined;
}

/** The valibot-shaped issue for an unsafe integer (so 400/422 bodies read like every other). */
export function unsafeIntegerIssue(path: PathItem[]): v.BaseIssue<unknown> {
  return {
    kind: 'validation',
    type: 'safe_integer',
    input: 0,
    expected: 'an integer within ±(2^53 − 1)',
    received: 'an unsafe integer',
    message: 'Invalid safe integer',
    path: path.map((p) => ({ type: 'object', origin: 'value', input: {}, key: p.key, value: p.value })),
  } as unknown as v.BaseIssue<unknown>;
}
