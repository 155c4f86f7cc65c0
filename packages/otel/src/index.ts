// @api/otel — OpenTelemetry traces for @api apps, on core's extension point. The app owns the SDK.
export { otel, type OtelOptions } from './http/otel';
export { TRACER_NAME } from './tracer';
export {
  taskContext,
  type TaskContextOptions,
  type TaskOutcomeName,
  type TaskRunInfo,
  type TaskTraceContext,
} from './tasks/task-context';
