// @api/tasks — a typed background queue that drains before teardown: in process, or on BullMQ.
// Curated exports only.
export { BackgroundTasks } from './queue/background-tasks';
export { inProcessBackend } from './queue/in-process';
export { TaskItemError, TasksClosedError, type ReasonIssue } from './queue/errors';
export type {
  BackgroundTasksOptions,
  TaskBackend,
  TaskContext,
  TaskHandler,
  TaskSchema,
  TaskStats,
} from './queue/types';
export { bullmqBackend, type BullMQBackendOptions, type RedisConnection } from './bullmq/bullmq-backend';
export { backgroundTasks } from './extension/background-tasks-extension';
