// The real metrics SDK, registered globally for the test file that imports this module: an
// in-memory exporter behind a periodic reader whose `forceFlush()` collects on demand.
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';

export const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
export const reader = new PeriodicExportingMetricReader({
  exporter: metricExporter,
  exportIntervalMillis: 3_600_000,
});
export const meterProvider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(meterProvider);

/** Collects now and returns the metric named `name` (the latest export), if any was recorded. */
export async function collected(name: string): Promise<MetricData | undefined> {
  metricExporter.reset();
  await reader.forceFlush();
  for (const resource of metricExporter.getMetrics())
    for (const scope of resource.scopeMetrics)
      for (const metric of scope.metrics) if (metric.descriptor.name === name) return metric;
  return undefined;
}

/** The data points of `name`, as `[attributes, value]`. */
export async function points<T = number>(name: string): Promise<Array<[Record<string, unknown>, T]>> {
  const metric = await collected(name);
  return ((metric?.dataPoints ?? []) as DataPoint<T>[]).map((p) => [p.attributes, p.value]);
}

export type { Histogram };
