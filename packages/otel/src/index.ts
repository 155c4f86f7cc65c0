// @api/otel — OpenTelemetry traces and metrics for @api apps, on core's extension point. The app owns the SDK.
export { otel, type OtelOptions } from './http/otel';
export { TRACER_NAME } from './tracer';
export {
  taskContext,
  type TaskContextOptions,
  type TaskOutcomeName,
  type TaskRunInfo,
  type TaskTraceContext,
} from './tasks/task-context';
export { taskQueueMetrics, type QueueStats, type TaskQueueMetricsOptions } from './metrics/task-metrics';
export { otelMetricProducer, type OtelMetricProducerOptions } from './metrics/producer';
export {
  HTTP_DURATION_BUCKETS,
  SESSION_DURATION_BUCKETS,
  METRIC_HTTP_SERVER_ACTIVE_REQUESTS,
  METRIC_HTTP_SERVER_REQUEST_DURATION,
  METRIC_TASK_PROCESS_DURATION,
  METRIC_TASK_QUEUE_DEPTH,
  METRIC_WEBSOCKET_ACTIVE_SESSIONS,
  METRIC_WEBSOCKET_SESSION_DURATION,
} from './metrics/meter';
