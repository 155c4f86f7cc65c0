// Starting the zod app in tests (in process, through @api/testing's TestClient).
import { TestClient } from '@api/testing';
import { ZodApp, type ZodAppOptions } from '../src/app';

/** A logger that drops everything (tests assert on behaviour, not on log noise). */
export const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function startZod(options: ZodAppOptions = {}): Promise<TestClient> {
  return TestClient.start(new ZodApp({ logger: quiet, ...options }));
}
