// Metrics of @api/tasks: each run's duration (through `taskContext()`), and a queue's depth read
// from its `stats()` when the SDK collects (nothing runs per item for it).
import { metrics, ValueType, type Attributes, type MeterProvider } from '@opentelemetry/api';
import { describeValue, wiringError } from '@api/core/extension';
import { TRACER_NAME } from '../tracer';
import { METRIC_TASK_QUEUE_DEPTH, type Instruments } from './meter';

/** What the metrics read of a task item's run (`TaskRunInfo`). */
interface RunInfo {
  readonly name: string;
  readonly backend: string;
  readonly queue: string | undefined;
}

type Outcome = 'processed' | 'failed' | 'interrupted' | 'dropped';

/**
 * Runs one item and records `messaging.process.duration` (seconds) by `messaging.system`,
 * `messaging.destination.name`, `api.task.name` and `api.task.outcome` (`error.type` `_OTHER` on a
 * failed run).
 */
export function runMeasured(
  instruments: Instruments,
  task: RunInfo,
  run: () => Outcome | Promise<Outcome>,
): Outcome | Promise<Outcome> {
  const started = performance.now();
  const record = (outcome: Outcome): Outcome => {
    const attributes: Attributes = {
      'messaging.system': task.backend === 'bullmq' ? 'bullmq' : 'api.tasks',
      'messaging.destination.name': task.queue ?? task.name,
      'api.task.name': task.name,
      'api.task.outcome': outcome,
    };
    if (outcome === 'failed') attributes['error.type'] = '_OTHER';
    instruments.taskDuration.record((performance.now() - started) / 1000, attributes);
    return outcome;
  };
  const result = run();
  return typeof result === 'string' ? record(result) : result.then(record);
}

/** What `taskQueueMetrics` reads of a queue (`BackgroundTasks` is one). */
export interface QueueStats {
  readonly backend: string;
  stats(): { readonly queued: number; readonly inFlight: number };
}

/** Options of `taskQueueMetrics(queue, options)`. */
export interface TaskQueueMetricsOptions {
  /** The queue's name in `messaging.destination.name` (default: its backend's name). */
  readonly name?: string | undefined;
  /** Where the gauge is registered (default: the global provider at the time of the call). */
  readonly meterProvider?: MeterProvider | undefined;
}

/**
 * Reports a task queue's depth as `api.task.queue.depth` (items waiting, this process's view;
 * `api.task.state` `queued` or `in_flight`), read from `queue.stats()` each time the SDK collects.
 * Call it once the SDK is registered (in `wire()`, after `include(backgroundTasks(…))`).
 *
 * @param queue - what `backgroundTasks()` returned
 * @param options - the queue's name and a meter provider
 * @example
 * const tasks = this.include(backgroundTasks({ propagator: taskContext() }));
 * taskQueueMetrics(tasks, { name: 'emails' });
 */
export function taskQueueMetrics(queue: QueueStats, options: TaskQueueMetricsOptions = {}): void {
  if (typeof (queue as Partial<QueueStats> | null)?.stats !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      'taskQueueMetrics(queue)',
      `queue has no stats(), got ${describeValue(queue)}`,
      'pass what backgroundTasks() returned',
    );
  const provider = options.meterProvider ?? metrics.getMeterProvider();
  const gauge = provider.getMeter(TRACER_NAME).createObservableUpDownCounter(METRIC_TASK_QUEUE_DEPTH, {
    description: 'Task items waiting (queued) and running (in_flight) in this process.',
    unit: '{item}',
    valueType: ValueType.INT,
  });
  const name = options.name ?? queue.backend;
  gauge.addCallback((result) => {
    const { queued, inFlight } = queue.stats();
    result.observe(queued, { 'messaging.destination.name': name, 'api.task.state': 'queued' });
    result.observe(inFlight, { 'messaging.destination.name': name, 'api.task.state': 'in_flight' });
  });
}
