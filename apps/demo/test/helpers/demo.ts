// Starting the demo in tests: an in-process DemoApp served by @api/testing's TestClient, with
// every HTTP response recorded for the OpenAPI contract check (see contract.ts).
import { TestClient } from '@api/testing';
import { DemoApp, type DemoOptions } from '../../src/app';
import { recordingApp, type RecordedExchange } from './conformance';

/** A logger that drops everything (tests assert on behaviour, not on log noise). */
export const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

export const AUTH = { authorization: 'Bearer token' } as const;

export interface Demo<TJar extends boolean = false> {
  readonly app: DemoApp;
  readonly client: TestClient<TJar>;
  /** Processed background items (`<action>:<widgetId>`). */
  readonly taskLog: string[];
}

/**
 * Starts a demo on an in-memory database. `exchanges`, when given, receives every HTTP response
 * the client gets (recorded at the node:http listener).
 */
export async function startDemo<TJar extends boolean = false>(
  options: DemoOptions & { readonly exchanges?: RecordedExchange[]; readonly cookieJar?: TJar } = {},
): Promise<Demo<TJar>> {
  process.env.DEMO_DB = ':memory:';
  const { exchanges, cookieJar, ...rest } = options;
  const taskLog = rest.taskLog ?? [];
  const app = new DemoApp({ logger: quiet, answerDelayMs: 0, ...rest, taskLog });
  const served = exchanges ? recordingApp(app, exchanges) : app;
  const client = await TestClient.start<TJar>(served, { cookieJar: cookieJar ?? (false as TJar) });
  return { app, client, taskLog };
}

/** Polls `condition` every 5 ms until it holds (or fails after `timeoutMs`). */
export async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
