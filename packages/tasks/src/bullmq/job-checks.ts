// What a worker checks of a job as it arrives from Redis, beside its schema: the context carried
// with it, and whether its retry options match this process's registration. Each finding is
// reported once per schema; neither stops the job.
import type { Job } from 'bullmq';
import type { EngineContext } from '../queue/engine';
import { checkCarried, CONTEXT_KEY } from '../queue/context';
import type { Route } from '../queue/route';
import { bullBackoff, describeRetry } from './bullmq-options';

/**
 * Splits a job's data into the item and the context carried beside its fields (`$context`),
 * checked like the item: one that fails is dropped (the handlers run without it), reported once
 * per schema. Without a propagator here the field is only taken off the item.
 */
export function splitCarried(at: {
  readonly route: Route;
  readonly data: unknown;
  readonly ctx: EngineContext;
}): [unknown, Readonly<Record<string, string>> | undefined] {
  const { route, data, ctx } = at;
  if (typeof data !== 'object' || data === null || !(CONTEXT_KEY in data)) return [data, undefined];
  const { [CONTEXT_KEY]: raw, ...item } = data as Record<string, unknown>;
  if (ctx.propagator === undefined) return [item, undefined];
  const checked = checkCarried(raw);
  if (typeof checked !== 'string') return [item, checked];
  if (!route.contextLogged) {
    route.contextLogged = true;
    ctx.log.warn(
      `${ctx.owner}: a ${route.label} item from Redis carries a context that fails its checks (${checked}); its handlers run without it (reported once per schema)`,
    );
  }
  return [item, undefined];
}

/**
 * Reports (once per schema) an item whose own retry options — set by the process that added
 * it — differ from this process's registration: BullMQ follows the item's.
 */
export function checkRetry(at: {
  readonly route: Route;
  readonly job: Job;
  readonly ctx: EngineContext;
  readonly queueName: string;
}): void {
  const { route, job, ctx, queueName } = at;
  if (route.mismatchLogged) return;
  const want = route.retry;
  const wantAttempts = want?.attempts ?? 1;
  const wantBackoff = want === undefined ? undefined : bullBackoff(want);
  const gotAttempts = job.opts.attempts ?? 1;
  const raw = job.opts.backoff;
  const gotBackoff = typeof raw === 'number' ? { type: 'fixed', delay: raw } : raw;
  if (wantAttempts === gotAttempts && JSON.stringify(wantBackoff) === JSON.stringify(gotBackoff)) return;
  route.mismatchLogged = true;
  ctx.log.warn(
    `${ctx.owner}: a ${route.label} item arrived with ${describeRetry(gotAttempts, gotBackoff)} but ${route.label} is registered here with ${describeRetry(wantAttempts, wantBackoff)}; BullMQ follows the item's own options, set by the process that added it. Fix: register ${route.label} with the same options in every process that shares queue "${queueName}", producers included`,
  );
}
