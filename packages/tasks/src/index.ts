// @api/tasks — a typed background queue that drains before teardown: in process, or on BullMQ.
// Curated exports only.
import './wiring-codes';
export { BackgroundTasks } from './queue/background-tasks';
export { inProcessBackend } from './queue/in-process';
export { TaskItemError, TasksClosedError, type ReasonIssue } from './queue/errors';
export type {
  BackgroundTasksOptions,
  TaskAddOptions,
  TaskBackend,
  TaskBackoff,
  TaskContext,
  TaskContextPropagator,
  TaskHandler,
  TaskOutcome,
  TaskRegistrationOptions,
  TaskRun,
  TaskSchema,
  TaskStats,
} from './queue/types';
export { bullmqBackend } from './bullmq/bullmq-backend';
export type { BullMQBackendOptions, RedisConnection } from './bullmq/bullmq-options';
export { backgroundTasks } from './extension/background-tasks-extension';
