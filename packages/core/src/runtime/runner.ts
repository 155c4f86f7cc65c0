import { performance } from 'node:perf_hooks';
import type { UrlResolver } from '../responses/location';
import { writeAdHoc } from '../responses/writers';
import type { ExchangeImpl } from './exchange';
import type { Plan } from './plan';

/**
 * Runs one plan: intercepts → pre-handler → bind → handler → write, then observe. A plan with
 * nothing before binding and only synchronous binders stays synchronous until the handler returns.
 */
export function runPlan(plan: Plan, ex: ExchangeImpl, resolver: UrlResolver): void {
  if (plan.timed) ex.receivedAt = performance.now();
  if (plan.observers) observeWhenFinished(plan, ex);
  if (!plan.sync) {
    runSteps(plan, ex, resolver).catch((error: unknown) => ex.fail(error));
    return;
  }
  try {
    const keys = plan.keys;
    const binders = plan.binders;
    const input: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) input[keys[i]!] = binders[i]!(ex);
    const out = plan.invoke(input, ex);
    const write = plan.write;
    if (out instanceof Promise) {
      out.then(
        write === undefined ? undefined : (value: unknown) => writeSafely(plan, value, ex),
        (error: unknown) => ex.fail(error),
      );
    } else if (write !== undefined) {
      const written = write(out, ex);
      if (written instanceof Promise) written.catch((error: unknown) => ex.fail(error));
    }
  } catch (error) {
    ex.fail(error);
  }
}

function writeSafely(plan: Plan, value: unknown, ex: ExchangeImpl): void {
  try {
    const written = plan.write!(value, ex);
    if (written instanceof Promise) written.catch((error: unknown) => ex.fail(error));
  } catch (error) {
    ex.fail(error);
  }
}

async function runSteps(plan: Plan, ex: ExchangeImpl, resolver: UrlResolver): Promise<void> {
  if (plan.intercepts) {
    for (const intercept of plan.intercepts) {
      let answer = intercept(ex);
      if (answer instanceof Promise) answer = await answer;
      if (answer !== undefined) {
        writeAdHoc(answer, ex, resolver);
        return;
      }
    }
  }
  if (plan.before) {
    for (const step of plan.before) {
      const done = step(ex);
      if (done instanceof Promise) await done;
    }
  }
  const keys = plan.keys;
  const binders = plan.binders;
  const input: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    let value = binders[i]!(ex);
    if (value instanceof Promise) value = await value;
    input[keys[i]!] = value;
  }
  let out = plan.invoke(input, ex);
  if (out instanceof Promise) out = await out;
  if (plan.write === undefined) return;
  const written = plan.write(out, ex);
  if (written instanceof Promise) await written;
}

/** Calls the plan's observers once the response is complete (or the connection is taken over). */
export function observeWhenFinished(plan: Plan, ex: ExchangeImpl): void {
  const observers = plan.observers!;
  if (ex.receivedAt === 0) ex.receivedAt = performance.now();
  const finished = (): void => {
    ex.finished = undefined;
    const duration = performance.now() - ex.receivedAt;
    for (const observe of observers) {
      try {
        observe(ex, ex.status, duration);
      } catch (error) {
        ex.log.warn(`${ex.method} ${ex.path}: an observe hook failed (ignored)`, error);
      }
    }
  };
  ex.finished = finished;
  ex.res.once('finish', finished);
}
