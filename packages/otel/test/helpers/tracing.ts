// The real SDK, registered globally for the test file that imports this module: an in-memory
// exporter behind a simple (synchronous) processor, the async-hooks context manager and the W3C
// propagators that `register()` installs by default.
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';

export const exporter = new InMemorySpanExporter();
export const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

/** The finished span named `name` (waits for it: spans end when the response or socket completes). */
export async function spanNamed(name: string, timeoutMs = 5_000): Promise<ReadableSpan> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (span) return span;
    if (Date.now() > deadline)
      throw new Error(
        `no span "${name}" in ${JSON.stringify(exporter.getFinishedSpans().map((s) => s.name))}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A W3C `traceparent` for a fixed remote parent. */
export const REMOTE = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
} as const;
