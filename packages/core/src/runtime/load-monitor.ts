import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { OverloadedError } from '../errors';
import type { LoadSheddingOptions } from '../contract/serving-options';
import type { Logger } from '../logging/logger';

/** The default interval between two measurements, ms. */
export const DEFAULT_SAMPLE_INTERVAL_MS = 1000;
/** The default `retry-after` of a shed request, seconds. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/**
 * Measures event-loop delay, heap and RSS every `sampleIntervalMs` (an unref'd timer, off the
 * request path) and keeps one flag the runtime reads per request: `overloaded`. Logs each change
 * once. Closed by the app's exit stack.
 */
export class LoadMonitor {
  /** True while the last measurement was past a limit: new requests are shed. */
  overloaded = false;
  /** The answer of a shed request (one instance: it carries no per-request data). */
  readonly error: OverloadedError;
  readonly #options: LoadSheddingOptions;
  readonly #log: Logger;
  readonly #histogram: IntervalHistogram | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(options: LoadSheddingOptions, log: Logger) {
    this.#options = options;
    this.#log = log;
    this.error = new OverloadedError().withHeaders({
      'retry-after': String(options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS),
    });
    if (options.maxEventLoopDelayMs !== undefined) {
      this.#histogram = monitorEventLoopDelay({ resolution: 10 });
      this.#histogram.enable();
    }
    this.#timer = setInterval(() => this.sample(), options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Measures now and updates `overloaded` (the timer calls it; tests may too). */
  sample(): void {
    const reason = this.#pastLimit();
    if ((reason !== undefined) === this.overloaded) return;
    this.overloaded = reason !== undefined;
    if (reason !== undefined) this.#log.warn(`shedding load: ${reason}; new requests get 503`);
    else this.#log.info('load back under the limits; no longer shedding');
  }

  #pastLimit(): string | undefined {
    const o = this.#options;
    const histogram = this.#histogram;
    if (histogram !== undefined) {
      // The longest stall since the last measurement (a blocked loop is one long sample).
      const delayMs = histogram.count === 0 ? 0 : histogram.max / 1e6;
      histogram.reset();
      if (delayMs > o.maxEventLoopDelayMs!)
        return `event-loop delay ${Math.round(delayMs)} ms > ${o.maxEventLoopDelayMs} ms`;
    }
    if (o.maxRssBytes !== undefined) {
      const rss = process.memoryUsage.rss();
      if (rss > o.maxRssBytes) return `RSS ${rss} bytes > ${o.maxRssBytes} bytes`;
    }
    if (o.maxHeapUsedBytes !== undefined) {
      const heap = process.memoryUsage().heapUsed;
      if (heap > o.maxHeapUsedBytes) return `heap in use ${heap} bytes > ${o.maxHeapUsedBytes} bytes`;
    }
    return undefined;
  }

  /** Stops measuring (at shutdown, from the exit stack). */
  close(): void {
    clearInterval(this.#timer);
    this.#histogram?.disable();
  }
}
