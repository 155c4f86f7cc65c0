import { describeValue, wiringError } from '../contract/wiring-error';
import type { Wiring } from './extension-api';

/**
 * An extension: installed with `this.include(extension)` inside `wire()`; `setup` runs at once
 * and its return value is what `include` returns.
 */
export interface Extension<T = void> {
  readonly name: string;
  setup(wiring: Wiring): T;
}

/**
 * Declares an extension (identity, for inference): `{ name, setup(wiring) }`, checked here so a
 * wrong one fails where it is written, not at `include`.
 *
 * @example
 * export const meta = defineExtension({ name: 'meta', setup(wiring) { wiring.addRoute({ … }) } });
 */
export function defineExtension<T>(extension: Extension<T>): Extension<T> {
  if (typeof extension !== 'object' || extension === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      'defineExtension',
      `expected { name, setup(wiring) }, got ${describeValue(extension)}`,
      "defineExtension({ name: 'my-extension', setup(wiring) { … } })",
    );
  const given = extension as unknown as Partial<Record<string, unknown>>;
  if (typeof given.name !== 'string' || given.name === '')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      'defineExtension',
      '"name" must be a non-empty string (it names the extension ' +
        `in wiring errors), got ${describeValue(given.name)}`,
      "name: 'my-extension'",
    );
  if (typeof given.setup !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `defineExtension(${given.name})`,
      `"setup" must be a function (wiring) => value, got ${describeValue(given.setup)}`,
      'setup(wiring) { … }',
    );
  for (const key of Object.keys(given))
    if (key !== 'name' && key !== 'setup')
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        `defineExtension(${given.name})`,
        `unknown key "${key}"`,
        'an extension is { name, setup(wiring) }; do the rest inside setup',
      );
  return extension;
}
