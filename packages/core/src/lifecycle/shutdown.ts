import type { Logger } from '../logging/logger';
import type { ExitStacks } from './exit-stack';

/** Options of `app.close()`. */
export interface ShutdownOptions {
  /**
   * Called when the shutdown cap is reached with requests still in flight: `serve()` closes every
   * connection here. Upgraded sockets are destroyed by core either way.
   */
  readonly onDeadline?: () => void;
}

/** What shutdown needs to know about a running app. */
export interface ShutdownWaiter {
  /** Marks the app draining and aborts the exchanges' `shutdownSignal`. */
  beginShutdown(): void;
  readonly inFlight: number;
  readonly upgraded: ReadonlySet<unknown>;
  /** Requests still reading their body (what `refuseReading` answers 503). */
  readonly reading: { readonly size: number };
  whenIdle(): Promise<void>;
  /** The cap was reached: the requests' own signals abort. */
  reachCap(): void;
  refuseReading(): void;
  destroyUpgraded(): void;
}

/** A shutdown phase's callback (`onBeforeClose`, `onDrain`). */
export type ShutdownHook = () => void | Promise<void>;

/**
 * At the cap, how long uploads just answered 503 get for that answer to leave before every
 * connection is cut. Only spent when such uploads exist (and ends as soon as nothing is in
 * flight), so the drain phase normally starts the moment the cap is reached.
 */
export const REFUSED_UPLOAD_GRACE_MS = 200;

/**
 * The shutdown phases, in order: the shutdown signal aborts → before-close hooks → in-flight
 * requests and upgraded sockets finish (bounded by `capMs`; uploads cut there get
 * `REFUSED_UPLOAD_GRACE_MS` for their 503) → drain hooks → the exit stack unwinds
 * (exact reverse order of opening). Every hook runs even when one fails; the first failure is
 * rethrown at the end. The before-close phase is bounded by `capMs` too, so a hook that never
 * settles cannot hold the process; drain hooks keep their own deadlines (a task queue's).
 */
export async function runShutdown(p: {
  readonly appName: string;
  /** Undefined when the app never finished starting (only the exit stack unwinds). */
  readonly runtime: ShutdownWaiter | undefined;
  readonly beforeClose: readonly ShutdownHook[];
  readonly drain: readonly ShutdownHook[];
  readonly stacks: ExitStacks;
  readonly capMs: number;
  readonly log: Logger;
  readonly options: ShutdownOptions;
}): Promise<void> {
  let failure: { error: unknown } | undefined;
  /**
   * Runs a phase's hooks in order; the phase as a whole is bounded by `capMs` (a stuck hook is left
   * behind, logged once).
   */
  const run = async (phase: string, hooks: readonly ShutdownHook[], capped = false): Promise<void> => {
    if (hooks.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<'cap'>((resolve) => {
      timer = setTimeout(() => resolve('cap'), p.capMs);
      timer.unref();
    });
    let done = 0;
    const all = (async () => {
      for (const hook of hooks) {
        try {
          await hook();
        } catch (error) {
          p.log.error(`${p.appName}: a ${phase} shutdown hook failed`, error);
          failure ??= { error };
        }
        done++;
      }
    })();
    const outcome = await Promise.race(capped ? [all.then(() => 'done' as const), cap] : [all]);
    clearTimeout(timer);
    if (outcome === 'cap')
      p.log.warn(
        `${p.appName}: ${hooks.length - done} ${phase} hook(s) still running ` +
          `after the shutdown cap (${p.capMs} ms); shutdown goes on without them`,
      );
  };
  const runtime = p.runtime;
  runtime?.beginShutdown();
  await run('before-close', p.beforeClose, true);
  if (runtime) {
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<'cap'>((resolve) => {
      timer = setTimeout(() => resolve('cap'), p.capMs);
      timer.unref();
    });
    const outcome = await Promise.race([runtime.whenIdle().then(() => 'idle' as const), cap]);
    clearTimeout(timer);
    if (outcome === 'cap') {
      p.log.warn(
        `${p.appName}: shutdown cap (${p.capMs} ms) reached with ${runtime.inFlight} ` +
          `request(s) and ${runtime.upgraded.size} upgraded socket(s) open; closing them`,
      );
      // Uploads still arriving get a 503 (their connections close after it); cutting the
      // connections at once could reset them before that answer is out, so they get a short
      // grace. Without such uploads nothing waits: the drain phase starts now, and the worst case
      // of a shutdown stays cap + drain deadline.
      runtime.reachCap();
      const refused = runtime.reading.size;
      runtime.refuseReading();
      if (refused > 0) {
        let grace: NodeJS.Timeout | undefined;
        await Promise.race([
          runtime.whenIdle(),
          new Promise((resolve) => (grace = setTimeout(resolve, REFUSED_UPLOAD_GRACE_MS))),
        ]);
        clearTimeout(grace);
      }
      p.options.onDeadline?.();
      runtime.destroyUpgraded();
    }
  }
  await run('drain', p.drain);
  try {
    await p.stacks.unwind();
  } catch (error) {
    failure ??= { error };
  }
  if (failure) throw failure.error;
}
