// `afterSources` steps: a pre-handler step that needs a mount-provided source's value (a rate limit
// keyed by the authenticated `user`). On a route with one, the mount's sources are resolved as the
// last pre-handler step (not as binders), the steps run with their values, and the binders read
// the values kept for them: one resolution per request, still before any body is read.
import type { AfterSourcesStep, BeforeStep, SourceResolver } from '../contract/contribution';
import type { Exchange } from '../contract/exchange';

/**
 * Adds one pre-handler step to `before` that resolves every `provided` source in order, keeps the
 * values on the exchange, then runs `steps` with them; replaces each `provided` resolver with a
 * reader of the kept value (what the binders of declared sources then call).
 *
 * @param provided - the mount-provided sources of the route (`user`), in contribution order
 * @param steps - the contributions' `afterSources` steps, in contribution order
 * @param before - the route's pre-handler steps so far
 */
export function resolveSourcesFirst(
  provided: Map<string, SourceResolver>,
  steps: readonly AfterSourcesStep[],
  before: BeforeStep[],
): void {
  const slot = Symbol('api.sources');
  const entries = [...provided];
  const runSteps = (ex: Exchange, values: Record<string, unknown>, from: number): void | Promise<void> => {
    for (let i = from; i < steps.length; i++) {
      const result = steps[i]!(ex, values);
      if (result instanceof Promise) return result.then(() => runSteps(ex, values, i + 1));
    }
  };
  const resolve = (ex: Exchange, values: Record<string, unknown>, from: number): void | Promise<void> => {
    for (let i = from; i < entries.length; i++) {
      const [key, resolver] = entries[i]!;
      const value = resolver(ex);
      if (value instanceof Promise)
        return value.then((settled: unknown) => {
          values[key] = settled;
          return resolve(ex, values, i + 1);
        });
      values[key] = value;
    }
    return runSteps(ex, values, 0);
  };
  before.push((ex) => {
    const values: Record<string, unknown> = {};
    ex.state[slot] = values;
    return resolve(ex, values, 0);
  });
  for (const [key] of entries) provided.set(key, (ex) => (ex.state[slot] as Record<string, unknown>)[key]);
}
