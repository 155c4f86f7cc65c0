import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Link,
  type TextMapPropagator,
  type TracerProvider,
} from '@opentelemetry/api';
import { checkTracingOptions } from '../options';
import { tracerOf } from '../tracer';
import { instrumentsOf } from '../metrics/meter';
import { runMeasured } from '../metrics/task-metrics';

/** How one run of a task item ended (what @api/tasks passes back from `run`). */
export type TaskOutcomeName = 'processed' | 'failed' | 'interrupted' | 'dropped';

/** The task item a run is for, as @api/tasks describes it. */
export interface TaskRunInfo {
  readonly name: string;
  readonly backend: string;
  readonly queue: string | undefined;
  readonly attempt: number;
}

/**
 * What `taskContext()` returns: a context propagator for @api/tasks's `propagator` option
 * (structurally its `TaskContextPropagator`; this package does not depend on @api/tasks).
 */
export interface TaskTraceContext {
  capture(): Readonly<Record<string, string>> | undefined;
  restore(
    carried: Readonly<Record<string, string>> | undefined,
    task: TaskRunInfo,
    run: () => TaskOutcomeName | Promise<TaskOutcomeName>,
  ): TaskOutcomeName | Promise<TaskOutcomeName>;
}

/** Options of `taskContext(options)`; both default to the globally registered ones. */
export interface TaskContextOptions {
  readonly tracerProvider?: TracerProvider | undefined;
  readonly propagator?: TextMapPropagator | undefined;
}

export const ATTR_MESSAGING_SYSTEM = 'messaging.system';
export const ATTR_MESSAGING_OPERATION_TYPE = 'messaging.operation.type';
export const ATTR_MESSAGING_OPERATION_NAME = 'messaging.operation.name';
export const ATTR_MESSAGING_DESTINATION_NAME = 'messaging.destination.name';
/** The item's schema name, its run number and how it ended (no convention names these). */
export const ATTR_TASK_NAME = 'api.task.name';
export const ATTR_TASK_ATTEMPT = 'api.task.attempt';
export const ATTR_TASK_OUTCOME = 'api.task.outcome';

/**
 * Trace context for @api/tasks: `backgroundTasks({ propagator: taskContext() })`. At `add`, the
 * active context (the request's server span, inside a handler) is captured as W3C `traceparent` /
 * `tracestate`; it travels with the item — on BullMQ in the job's data, to another process — and
 * each run of the item is a CONSUMER span `process <Schema>` in a trace of its own, **linked** to
 * the span that enqueued it, active while the handlers run (their own spans nest under it). A
 * failed run has the error status. Without an SDK nothing is captured or started.
 *
 * @param options - a tracer provider or propagator other than the globally registered ones
 * @example
 * const tasks = this.include(backgroundTasks({ drainTimeout: 1, propagator: taskContext() }));
 */
export function taskContext(options: TaskContextOptions = {}): TaskTraceContext {
  checkTracingOptions('taskContext(options)', options, ['inject', 'extract']);
  const tracer = tracerOf(options.tracerProvider);
  const instruments = instrumentsOf(undefined);
  const propagator: Pick<TextMapPropagator, 'inject' | 'extract'> = options.propagator ?? propagation;
  const setter = {
    set: (carrier: Record<string, string>, key: string, value: string) => void (carrier[key] = value),
  };
  const getter = {
    get: (carrier: Readonly<Record<string, string>>, key: string) => carrier[key],
    keys: (carrier: Readonly<Record<string, string>>) => Object.keys(carrier),
  };
  return {
    capture() {
      if (tracer() === undefined) return undefined;
      const carrier: Record<string, string> = {};
      propagator.inject(context.active(), carrier, setter);
      return Object.keys(carrier).length > 0 ? carrier : undefined;
    },
    restore(carried, task, run) {
      const meters = instruments();
      return meters === undefined
        ? traced(carried, task, run)
        : runMeasured(meters, task, () => traced(carried, task, run));
    },
  };

  /** One run inside a CONSUMER span linked to the request that added the item (when an SDK is registered). */
  function traced(
    carried: Readonly<Record<string, string>> | undefined,
    task: TaskRunInfo,
    run: () => TaskOutcomeName | Promise<TaskOutcomeName>,
  ): TaskOutcomeName | Promise<TaskOutcomeName> {
    const active = tracer();
    if (active === undefined) return run();
    const from =
      carried === undefined
        ? undefined
        : trace.getSpanContext(propagator.extract(ROOT_CONTEXT, carried, getter));
    const links: Link[] = from !== undefined && isSpanContextValid(from) ? [{ context: from }] : [];
    const span = active.startSpan(
      `process ${task.name}`,
      {
        kind: SpanKind.CONSUMER,
        root: true,
        links,
        attributes: {
          [ATTR_MESSAGING_SYSTEM]: task.backend === 'bullmq' ? 'bullmq' : 'api.tasks',
          [ATTR_MESSAGING_OPERATION_TYPE]: 'process',
          [ATTR_MESSAGING_OPERATION_NAME]: 'process',
          [ATTR_MESSAGING_DESTINATION_NAME]: task.queue ?? task.name,
          [ATTR_TASK_NAME]: task.name,
          [ATTR_TASK_ATTEMPT]: task.attempt,
        },
      },
      ROOT_CONTEXT,
    );
    const end = (outcome: TaskOutcomeName): TaskOutcomeName => {
      span.setAttribute(ATTR_TASK_OUTCOME, outcome);
      if (outcome === 'failed') {
        span.setAttribute('error.type', '_OTHER');
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'a handler failed' });
      }
      span.end();
      return outcome;
    };
    let result: TaskOutcomeName | Promise<TaskOutcomeName>;
    try {
      result = context.with(trace.setSpan(ROOT_CONTEXT, span), run);
    } catch (error) {
      span.end();
      throw error;
    }
    if (typeof result === 'string') return end(result);
    return result.then(end, (error: unknown) => {
      span.end();
      throw error;
    });
  }
}
