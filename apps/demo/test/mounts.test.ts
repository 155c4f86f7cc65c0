// The libraries the demo mounts as fetch handlers, driven over a real socket: Better Auth at
// /api/auth (sign-up, sign-in, an @api route authenticating its session cookie, a url-encoded
// form) and the MCP SDK's Streamable HTTP transport at /mcp-sdk, called by the SDK's own client.
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '@api/testing';
import type { DemoApp } from '../src/app';
import { AUTH, startDemo, until } from './helpers/demo';

let client: TestClient;
let app: DemoApp;

beforeAll(async () => {
  ({ client, app } = await startDemo());
});
afterAll(async () => {
  await client?.close();
});

/** Signs up a fresh account through the mounted Better Auth; returns its session cookie pair. */
async function signUp(email: string, name = 'Ada'): Promise<string> {
  const res = await fetch(`${client.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: client.url },
    body: JSON.stringify({ email, password: 'correct-horse-battery', name }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('better-auth.session_token='));
  expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
  return cookie!.split(';')[0]!;
}

describe('Better Auth at /api/auth', () => {
  it('signs up and in; GET /account authenticates its session cookie through an @api authenticator', async () => {
    await signUp('ada@example.com');
    const signIn = await fetch(`${client.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: client.url },
      body: JSON.stringify({ email: 'ada@example.com', password: 'correct-horse-battery' }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(signIn.headers.get('access-control-allow-origin')).toBe('*');
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    const account = await fetch(`${client.url}/account`, { headers: { cookie } });
    expect(account.status).toBe(200);
    expect(await account.json()).toEqual({ id: expect.any(String), email: 'ada@example.com', name: 'Ada' });
    const wrong = await fetch(`${client.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: client.url },
      body: JSON.stringify({ email: 'ada@example.com', password: 'wrong-password' }),
    });
    expect(wrong.status).toBe(401);
    expect((await fetch(`${client.url}/account`)).status).toBe(401);
    const forged = await fetch(`${client.url}/account`, {
      headers: { cookie: 'better-auth.session_token=forged.value' },
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ type: 'authentication-required' });
  });

  it('renames the account from a url-encoded form: 303 back to the page, 422 for an empty name', async () => {
    const cookie = await signUp('grace@example.com', 'Grace');
    const res = await fetch(`${client.url}/account/name`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: 'name=Grace+Hopper',
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/assets/account.html');
    expect(await (await fetch(`${client.url}/account`, { headers: { cookie } })).json()).toMatchObject({
      name: 'Grace Hopper',
    });
    const empty = await fetch(`${client.url}/account/name`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: 'name=+',
    });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ params: { issues: [{ path: 'form name' }] } });
  });
});

describe('POST /v1/uploads (a spooled file part, an endpoint mounted under a prefix)', () => {
  it('hashes the streamed file and answers 201; the unprefixed path is 404', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
    const form = new FormData();
    form.append('note', 'holiday');
    form.append('file', new Blob([bytes], { type: 'video/mp4' }), 'clip.mp4');
    const res = await fetch(`${client.url}/v1/uploads`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      filename: 'clip.mp4',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      note: 'holiday',
    });
    expect((await fetch(`${client.url}/uploads`, { method: 'POST', body: form })).status).toBe(404);
  });
});

describe('the MCP SDK at /mcp-sdk', () => {
  it("answers the SDK's own client: initialize, list tools, call a tool over the widget store", async () => {
    const created = await client.post('/widgets', {
      json: { name: 'mcp-gear', priceCents: 5 },
      headers: AUTH,
    });
    expect(created.status).toBe(201);
    const mcp = new Client({ name: 'demo-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${client.url}/mcp-sdk`)));
    try {
      expect(app.mcpSdk.size).toBe(1);
      const tools = await mcp.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(['list-widgets']);
      const result = await mcp.callTool({ name: 'list-widgets', arguments: { contains: 'mcp-' } });
      expect(result.structuredContent).toEqual({
        widgets: [{ id: expect.any(String), name: 'mcp-gear', priceCents: 5 }],
      });
    } finally {
      await mcp.close();
    }
  });

  it('refuses a request naming no session with the JSON-RPC error, through core', async () => {
    const res = await fetch(`${client.url}/mcp-sdk`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-session-id': 'nope',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toMatchObject({ error: { code: -32000 } });
  });
});

void until;
