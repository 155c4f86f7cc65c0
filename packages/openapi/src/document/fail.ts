import { WiringError } from '@api/core/extension';

/**
 * Throws a `WiringError` worded like `wiring.fail`: where, what, and the fix.
 * (`buildDocument` runs without a `Wiring`, so the document code throws its own.)
 */
export function fail(where: string, problem: string, fix: string): never {
  throw new WiringError(`${where}: ${problem}. Fix: ${fix}.`);
}
