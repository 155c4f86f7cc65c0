// The one matcher core's tests use for WiringErrors: the code (the kind of mistake) and `where`
// (who is named), so a test survives a rewording but still proves the right call is blamed.
import { expect } from 'vitest';
import { WiringError, type WiringErrorCode } from '../src/index';

/** What `fn` throws (`undefined` when it returns). */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * Asserts `error` (or what `error()` throws, when it is a function) is a `WiringError` (a
 * `TypeError`) with `code`, whose `where` is `where` (or matches it), and whose message is
 * `where: problem. Fix: fix.` built from its parts. Returns it for further assertions.
 */
export function expectWiringError(
  error: unknown,
  code: WiringErrorCode,
  where: string | RegExp,
): WiringError {
  const e = typeof error === 'function' ? thrown(error as () => unknown) : error;
  expect(e).toBeInstanceOf(WiringError);
  expect(e).toBeInstanceOf(TypeError);
  const w = e as WiringError;
  expect({ code: w.code, where: w.where }).toEqual({
    code,
    where: typeof where === 'string' ? where : expect.stringMatching(where),
  });
  expect(w.message).toBe(`${w.where}: ${w.problem}. Fix: ${w.fix}.`);
  return w;
}
