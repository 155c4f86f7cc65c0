// @api/testing's `client.websocket` against real @api/ws endpoints (the cross-package half of its
// tests: @api/testing cannot depend on @api/ws, which depends on it), and the WebSocket example of
// @api/testing's README, run as a user would run it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { BaseApp, Struct } from '@api/core';
import { TestClient, WebSocketDenied } from '@api/testing';
import { Channel, websocket, WebSocketEndpoint } from '../src/index';
import { ChatMessage, quietLogger, SendMessage, WsApp } from './fixtures/app';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
async function start(): Promise<{ client: TestClient<true>; app: WsApp }> {
  const app = new WsApp({ logger: quietLogger() });
  const client = await TestClient.start(app, { cookieJar: true });
  clients.push(client);
  return { client, app };
}

describe('client.websocket through a TestClient', () => {
  it('applies the cookie jar to the handshake, and exposes denials from the funnel', async () => {
    const { client, app } = await start();

    const denied = (await client
      .websocket('/chat', { inbound: SendMessage, outbound: ChatMessage })
      .catch((e: unknown) => e)) as WebSocketDenied;
    expect(denied).toBeInstanceOf(WebSocketDenied);
    expect(denied.status).toBe(401);
    expect(denied.response.json()).toEqual({
      type: 'authentication-required',
      title: 'Authentication required',
      status: 401,
    });

    client.cookieJar.set('session_id', 'token');
    await using ws = await client.websocket('/chat', { inbound: SendMessage, outbound: ChatMessage });
    while (app.chat!.subscribers('lobby') < 1) await new Promise((r) => setTimeout(r, 5));
    await ws.send({ type: 'send-message', text: 'hello' });
    expect(await ws.receive()).toEqual({ type: 'chat-message', text: 'hello', from: 'user-name' });
  });

  it('lets per-call cookies win over the jar', async () => {
    const { client, app } = await start();
    client.cookieJar.set('session_id', 'token');
    await using ws = await client.websocket('/chat', {
      inbound: SendMessage,
      outbound: ChatMessage,
      cookies: { session_id: 'other' },
    });
    while (app.chat!.subscribers('lobby') < 1) await new Promise((r) => setTimeout(r, 5));
    await ws.send({ type: 'send-message', text: 'who am i' });
    expect(await ws.receive()).toEqual({ type: 'chat-message', text: 'who am i', from: 'other-name' });
  });

  it("reports the endpoint's close codes: 1008 for a schema-invalid message", async () => {
    const { client } = await start();
    client.cookieJar.set('session_id', 'token');
    const ws = await client.websocket('/chat', { inbound: SendMessage, outbound: ChatMessage });
    await ws.sendRaw(JSON.stringify({ type: 'send-message', text: '' }));
    expect((await ws.closed).code).toBe(1008);
    await expect(ws.receive()).rejects.toThrow(/the connection closed \(1008/);
  });

  it('sees close 1001 "server shutting down" when the client shuts the app down', async () => {
    const { client } = await start();
    client.cookieJar.set('session_id', 'token');
    const ws = await client.websocket('/chat', { inbound: SendMessage, outbound: ChatMessage });
    await client.close();
    expect(await ws.closed).toEqual({ code: 1001, reason: 'server shutting down' });
  });
});

// The app of this package's README example, for its "Testing" snippet.
const Say = Struct('Say', { text: v.pipe(v.string(), v.minLength(1)) }, { tag: true });
const Said = Struct('Said', { text: v.string(), from: v.string() }, { tag: true });
const RoomPath = Struct('RoomPath', { room: v.string() });
const Who = Struct('Who', { name: v.string() });
class RoomSocket extends WebSocketEndpoint('/rooms/{room}', { inbound: Say, outbound: Said }) {
  constructor(private readonly rooms: Channel<typeof Said>) {
    super();
  }

  handle = this.handler({ path: RoomPath, params: Who }, async ({ websocket, path, params }) => {
    const subscriber = this.rooms.attach(websocket);
    this.rooms.join(subscriber, path.room);
    for await (const { text } of websocket) {
      this.rooms.publish(path.room, { type: 'Said', text, from: params.name });
    }
  });
}
class App extends BaseApp {
  protected override async wire() {
    const rooms = this.enter(new Channel(Said, { queueSize: 64 }));
    this.include(websocket(new RoomSocket(rooms), { maxFrameSize: 64 * 1024 }));
  }
}

describe('the README "Testing" snippet', () => {
  it('talks to the example app as written', async () => {
    await using client = await TestClient.start(new App({ logger: quietLogger() }), { cookieJar: true });
    await using ws = await client.websocket('/rooms/lobby', {
      inbound: Say,
      outbound: Said,
      params: { name: 'ada' },
    });
    await ws.send({ type: 'Say', text: 'hello' });
    expect(await ws.receive()).toEqual({ type: 'Said', text: 'hello', from: 'ada' });
  });
});

describe("@api/testing's README WebSocket example", () => {
  it('runs as written under node:test (tsx), both tests passing', async () => {
    const here = fileURLToPath(new URL('..', import.meta.url));
    const readme = readFileSync(join(here, '..', 'testing', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## WebSockets\n'));
    const example = /```ts\n([\s\S]*?)^```/m.exec(section)?.[1];
    expect(example).toContain("client.websocket('/chat'");
    // Inside this package, so @api/* and valibot resolve from its node_modules (to their sources).
    const dir = mkdtempSync(join(here, 'node_modules', '.readme-'));
    try {
      writeFileSync(join(dir, 'chat.test.ts'), example!);
      const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--conditions=@api/source', '--import', 'tsx', '--test', join(dir, 'chat.test.ts')],
          { cwd: here, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
      });
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/^# pass 2$/m);
      expect(result.output).toMatch(/^# fail 0$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
