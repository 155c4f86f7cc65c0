import * as v from 'valibot';
import { afterEach } from 'vitest';
import { TestClient } from '@api/testing';
import type { BaseApp } from '../src/index';
import { Struct } from '../src/index';

/** Shared models for core's wire-level tests. */
export const Widget = Struct('Widget', { id: v.string(), name: v.string(), priceCents: v.number() });
export const WidgetIn = Struct('WidgetIn', {
  name: v.pipe(v.string(), v.minLength(1)),
  priceCents: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export const WidgetPath = Struct('WidgetPath', { widget_id: v.string() });

/** A logger that records instead of printing. */
export function memoryLogger(): {
  lines: string[];
  errors: unknown[];
  info(m: string): void;
  warn(m: string, e?: unknown): void;
  error(m: string, e?: unknown): void;
} {
  const lines: string[] = [];
  const errors: unknown[] = [];
  return {
    lines,
    errors,
    info: (m) => lines.push(`info ${m}`),
    warn: (m, e) => {
      lines.push(`warn ${m}`);
      if (e !== undefined) errors.push(e);
    },
    error: (m, e) => {
      lines.push(`error ${m}`);
      if (e !== undefined) errors.push(e);
    },
  };
}

/** A TestClient per call, all closed after each test (wire-level tests share this). */
export function clientFactory(): (app: BaseApp<unknown>) => TestClient {
  const clients: TestClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  return (app) => {
    const c = new TestClient(app);
    clients.push(c);
    return c;
  };
}
