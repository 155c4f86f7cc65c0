import { defineExtension, wiringError, type Extension, type Wiring } from '@api/core/extension';
import { BackgroundTasks } from '../queue/background-tasks';
import type { BackgroundTasksOptions } from '../queue/types';

/**
 * The background queue on the app's lifecycle (the spec's `_create_background_tasks`): call it
 * inside `wire()` with `this.include(...)`; it returns the `BackgroundTasks` to register handlers on
 * and to hand to your resources.
 *
 * - Handlers log through the app's logger (unless `logger` is given).
 * - The worker starts when wiring finishes; register every handler inside `wire()`.
 * - Shutdown: after the server stopped accepting and in-flight requests finished (or were cut at
 *   the HTTP cap, `limits.shutdownTimeoutMs`, 10 s), the queue drains — items those requests
 *   enqueued included — under its own `drainTimeout`, **before** any resource on the exit stack
 *   is closed. So handlers can use services opened earlier in `wire()`.
 *
 * @param options - `maxsize` (1024), `drainTimeout` (30 s), `allowOneToMany` (false), `logger`, `backend`.
 * @example
 * protected override async wire() {
 *   const store = this.factory.createWidgetStore();
 *   const tasks = this.include(backgroundTasks({ drainTimeout: 1 }));
 *   tasks.register(WidgetEvent, (event) => store.recordEvent(event));
 *   this.includeResource(new WidgetResource(store, tasks));
 * }
 */
export function backgroundTasks(options: BackgroundTasksOptions = {}): Extension<BackgroundTasks> {
  return defineExtension({
    name: 'tasks',
    setup(wiring: Wiring): BackgroundTasks {
      if (
        wiring.transport === 'fetch' &&
        options.backend !== undefined &&
        options.backend.kind !== 'in-process'
      )
        throw wiringError(
          'API_WIRING_APP_STATE',
          `${wiring.appName}.include(backgroundTasks({ backend: ${options.backend.kind} }))`,
          `the ${options.backend.kind} backend needs Node (TCP connections to Redis from a long-lived worker), and the app is started for the fetch transport (app.fetch, or start({ transport: 'fetch' }))`,
          'serve the app with serve() (Node, Bun, Deno), or use the in-process backend (leave backend out) where the runtime keeps the process alive',
        );
      const tasks = new BackgroundTasks({ ...options, logger: options.logger ?? wiring.log });
      // The drain phase: after in-flight requests (HTTP cap) and before the exit stack unwinds.
      wiring.onDrain(() => tasks.close());
      // Also on the exit stack, at its place in opening order: if wire() fails after this, the
      // stack unwinds without a drain phase and the queue (its BullMQ connections) still closes
      // before the resources opened earlier. After a drain it is a no-op.
      wiring.enter(tasks);
      wiring.onWired(() => tasks.start());
      return tasks;
    },
  });
}
