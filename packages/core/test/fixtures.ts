import { connect, type Socket } from 'node:net';
import * as v from 'valibot';
import { afterEach } from 'vitest';
import { TestClient } from '@api/testing';
import type { BaseApp } from '../src/index';
import { AuthenticationRequiredError, Struct } from '../src/index';
import { mountOption, type MountOptionValue } from '../src/extension';

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

/**
 * A test mount option providing `user` (`{ name }`) from the `x-user` header, 401 without it; it
 * records `{ scheme, route }` as its catalogue fact `fakeAuth`.
 */
export const headerUserAuth: MountOptionValue = {
  [mountOption]: ({ route }) => ({
    order: 40,
    sources: {
      user: (ex) => {
        const name = ex.req.headers['x-user'];
        if (typeof name !== 'string') throw new AuthenticationRequiredError();
        return { name };
      },
    },
    facts: { fakeAuth: { scheme: 'x-user', route: `${route.method} ${route.path}` } },
  }),
};

/**
 * Sends raw bytes on a fresh socket; resolves with everything received once `until` matches the
 * text so far, or when the server ends the connection (`ended` says which).
 */
export function rawExchange(
  port: number,
  request: string | Buffer,
  until: RegExp,
): Promise<{ text: string; socket: Socket; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (until.test(text)) resolve({ text, socket, ended: false });
    });
    socket.on('end', () => resolve({ text, socket, ended: true }));
    socket.on('close', () => resolve({ text, socket, ended: true }));
    socket.on('error', reject);
  });
}
