// What an added item becomes before the engine takes it: its JSON form when it crosses processes,
// and the propagator's context carried with it.
import { Carried, checkCarried, CONTEXT_KEY } from './context';
import { TaskItemError } from './errors';
import type { TaskContextPropagator } from './types';

/** The JSON form of an item (what crosses processes), or a `TaskItemError` when it has none. */
export function toWire(item: unknown, where: string, label: string): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(item);
  } catch (error) {
    throw new TaskItemError(where, label, `the item cannot be encoded as JSON (${String(error)})`, []);
  }
  if (text === undefined) throw new TaskItemError(where, label, 'the item has no JSON form', []);
  return JSON.parse(text) as unknown;
}

/**
 * The item with the propagator's context: beside its fields under `$context` when it travels as
 * JSON (a BullMQ job's data), else wrapped for the in-process worker. A context the checks refuse
 * makes the add fail (a `TypeError` naming the propagator).
 */
export function carryContext(
  item: unknown,
  at: { readonly where: string; readonly propagator: TaskContextPropagator; readonly crosses: boolean },
): unknown {
  const { where } = at;
  const captured = at.propagator.capture();
  if (captured === undefined) return item;
  const checked = checkCarried(captured);
  if (typeof checked === 'string')
    throw new TypeError(
      `${where}: the propagator's capture() returned a context the queue cannot carry: ${checked}. Fix: return a small map of strings (or undefined for none)`,
    );
  if (!at.crosses) return new Carried(item, checked);
  if (typeof item !== 'object' || item === null || Array.isArray(item) || CONTEXT_KEY in item)
    throw new TypeError(
      `${where}: the item carries a context beside its fields in the job's data, so it must be an object without a "${CONTEXT_KEY}" field. Fix: declare the item as a Struct without "${CONTEXT_KEY}"`,
    );
  return { ...item, [CONTEXT_KEY]: { ...checked } };
}
