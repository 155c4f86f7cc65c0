// @api/otel — OpenTelemetry traces for @api apps, on core's extension point. The app owns the SDK.
export { otel, TRACER_NAME, type OtelOptions } from './http/otel';
