import type { Logger } from '@api/core/extension';

/** A logger that keeps every line (level + message + the error's message). */
export class MemoryLog implements Logger {
  readonly lines: { level: 'info' | 'warn' | 'error'; message: string; error?: unknown }[] = [];
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string, error?: unknown): void {
    this.lines.push({ level: 'warn', message, error });
  }
  error(message: string, error?: unknown): void {
    this.lines.push({ level: 'error', message, error });
  }
  of(level: 'info' | 'warn' | 'error'): string[] {
    return this.lines.filter((l) => l.level === level).map((l) => l.message);
  }
}

/** A promise with its resolve function exposed. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true (or fails after `ms`). */
export async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await sleep(2);
  }
}

/** Resolves on the next macrotask (after pending I/O callbacks and setImmediate callbacks queued before). */
export const nextMacrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
