import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { WiringError } from '@api/core';
import { quietLogger } from '../../test/apps';
import { Ping, Pong, WebSocketApp } from '../../test/websocket-app';
import { TestClient } from '../client/test-client';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
function start(): { client: TestClient; app: WebSocketApp } {
  const app = new WebSocketApp({ logger: quietLogger() });
  const client = new TestClient(app);
  clients.push(client);
  return { client, app };
}

/** Calls `client.websocket` the way an untyped (JavaScript) caller can. */
function untyped(client: TestClient, path: unknown, options: unknown): Promise<unknown> {
  return (client.websocket as (path: unknown, options: unknown) => Promise<unknown>)(path, options);
}

async function wiringError(promise: Promise<unknown>): Promise<WiringError> {
  const error = await promise.then(
    () => new Error('the call was accepted'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WiringError);
  return error as WiringError;
}

const FRAMING =
  "a framing: a valibot schema (a tagged Struct), a non-empty list of schemas, 'string' or 'bytes'";

describe('TestClient.websocket arguments', () => {
  it.each([
    ['a path without a leading slash', 'ws/echo', 'expected a path starting with "/", got "ws/echo"'],
    ['a missing path', undefined, 'expected a path starting with "/", got undefined'],
    ['a URL object', new URL('http://x/ws'), 'expected a path starting with "/", got an instance of URL'],
  ])('refuses %s', async (_label, path, message) => {
    const { client } = start();
    const error = await wiringError(untyped(client, path, { inbound: Ping, outbound: Pong }));
    expect(error.message).toBe(
      `TestClient.websocket: ${message}. Fix: pass the endpoint's path, e.g. '/chat'.`,
    );
  });

  it('refuses missing options, a non-object and unknown options (a typo)', async () => {
    const { client } = start();
    expect((await wiringError(untyped(client, '/ws/echo', undefined))).message).toBe(
      "TestClient.websocket: expected options with `inbound` and `outbound`, got undefined. Fix: pass the endpoint's framings: `{ inbound, outbound }`.",
    );
    expect((await wiringError(untyped(client, '/ws/echo', 'Ping'))).message).toMatch(
      /^TestClient\.websocket: expected an options object \(`inbound`, `outbound`, `params`, `headers`, `cookies`, `protocols`\), got "Ping"\./,
    );
    expect(
      (await wiringError(untyped(client, '/ws/echo', { inbound: Ping, outbound: Pong, cookie: {} }))).message,
    ).toBe(
      'TestClient.websocket: unknown option "cookie" (did you mean "cookies"?). Fix: use only inbound, outbound, params, headers, cookies, protocols (names are case-sensitive).',
    );
  });

  it.each([
    ['missing', undefined, 'undefined'],
    ['an unknown marker', 'text', '"text"'],
    ['an empty list', [], 'an array of 0'],
    ['a list with a non-schema', [Ping, 'string'], 'an array of 2'],
    ['an async schema', v.objectAsync({ a: v.string() }), 'an object'],
    ['the endpoint class', class ChatSocket {}, 'the class ChatSocket'],
  ])('refuses %s as inbound or outbound', async (_label, framing, got) => {
    const { client } = start();
    for (const key of ['inbound', 'outbound'] as const) {
      const options = { inbound: Ping, outbound: Pong, [key]: framing };
      const error = await wiringError(untyped(client, '/ws/echo', options));
      expect(error.message).toBe(
        `TestClient.websocket option \`${key}\`: expected ${FRAMING}, got ${got}. Fix: pass the endpoint's \`${key}\` as declared in WebSocketEndpoint(path, { inbound, outbound }).`,
      );
    }
  });

  it.each([
    [
      'params',
      { room: { nested: 1 } },
      'expected a record of strings, numbers, booleans or lists of them, got an object',
    ],
    ['params', 'room=a', 'expected a record of strings, numbers, booleans or lists of them, got "room=a"'],
    [
      'headers',
      { authorization: 1 },
      'expected a record of strings or a list of [name, value] string pairs, got an object',
    ],
    [
      'headers',
      [['a']],
      'expected a record of strings or a list of [name, value] string pairs, got an array of 1',
    ],
    ['cookies', { session_id: 7 }, 'expected a record of strings, got an object'],
    ['cookies', new Map([['a', '1']]), 'expected a record of strings, got an instance of Map'],
    ['protocols', 7, 'expected a string or a list of strings, got number 7'],
    ['protocols', ['a', 1], 'expected a string or a list of strings, got an array of 2'],
  ])('refuses a wrong `%s` (%j)', async (key, value, message) => {
    const { client } = start();
    const error = await wiringError(
      untyped(client, '/ws/echo', { inbound: Ping, outbound: Pong, [key]: value }),
    );
    expect(error.message).toContain(`TestClient.websocket option \`${key}\`: ${message}. Fix: `);
  });

  it('refuses cookies together with an explicit Cookie header as ambiguous', async () => {
    const { client } = start();
    const error = await wiringError(
      untyped(client, '/ws/echo', {
        inbound: Ping,
        outbound: Pong,
        cookies: { a: '1' },
        headers: { COOKIE: 'b=2' },
      }),
    );
    expect(error.message).toMatch(
      /^TestClient\.websocket: both `cookies` and an explicit Cookie header were given/,
    );
  });

  it('checks before starting the app or connecting', async () => {
    const { client, app } = start();
    await wiringError(untyped(client, '/ws/echo', { inbound: Ping }));
    expect(() => client.url).toThrow(/not started/);
    expect(app.requests).toEqual([]);
  });
});
