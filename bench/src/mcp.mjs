#!/usr/bin/env node
// MCP tool calls: what @api/mcp costs per `tools/call` against the operation called directly, and
// against the official MCP TypeScript SDK (McpServer + its Node Streamable HTTP transport on
// node:http, JSON answers) serving the same tool. Servers:
//   api-route  `GET /notes/n1` on an @api app (the operation itself: the baseline)
//   api-mcp    the same app with @api/mcp: `POST /mcp` tools/call Notes_readOne {note_id: 'n1'}
//              (the call is invoked through the app in-process as the operation's own request)
//   sdk-mcp    @modelcontextprotocol/sdk: one McpServer session, tool `Notes_readOne` (zod input
//              and output schemas), the same note as structured content
// Each MCP server gets one session (initialize + notifications/initialized) before timing; every
// timed request is a tools/call in that session. Every answer is checked before timing.
// Interleaved rounds; servers pinned to core 0, wrk and this harness to core 1; server CPU per
// request from /proc. Writes results/mcp-<timestamp>.{md,json}.
// `--instructions`: instead of timing, counts instructions per request under valgrind (callgrind),
// which load on the machine does not change: each server in turn, 8,000 warm-up calls, then 4
// windows of 1,000 (the median of the last 2); prints per-server counts and the ratios.
// Usage: pnpm --filter @api/bench mcp [--rounds 5] [--duration 4] [--warmup 2] [--connections 50]
//          [--servers api-route,api-mcp,sdk-mcp] [--quiet-wait 60] [--no-build] [--out DIR] [--instructions]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BENCH,
  childOrMain,
  ensureWrk,
  freePort,
  fileStamp,
  int,
  LOAD_CORE,
  medianRows,
  packageVersion,
  pinSelf,
  r2,
  rpsText,
  runMeta,
  requireLinuxTwoCores,
  SERVER_CORE,
  sideBySideArgs,
  sideBySideRounds,
  startServer,
  stopAll,
  timedWrk,
  turboBuild,
  wrk,
  writeResults,
} from './harness/index.mjs';

const SELF = fileURLToPath(import.meta.url);
const ALL_SERVERS = ['api-route', 'api-mcp', 'sdk-mcp'];
const NOTE = { id: 'n1', text: 'hello from the bench' };
const CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'Notes_readOne', arguments: { note_id: 'n1' } },
};
const ACCEPT = 'application/json, text/event-stream';
const PROTOCOL = '2025-06-18';

// ---------------------------------------------------------------- child mode: one server
async function api(port, withMcp) {
  const v = await import('valibot');
  const { BaseApp, Resource, Struct, serve } = await import('@api/core');
  const { mcp } = await import('@api/mcp');
  const Note = Struct('Note', { id: v.string(), text: v.string() });
  const NotePath = Struct('NotePath', { note_id: v.string() });
  class Notes extends Resource('/notes', { name: 'Notes' }) {
    readOne = this.operation({ path: NotePath, returns: Note }, ({ path }) => ({
      ...NOTE,
      id: path.note_id,
    }));
  }
  class App extends BaseApp {
    async wire() {
      this.includeResource(new Notes());
      if (withMcp) this.include(mcp({ tools: [Notes] }));
    }
  }
  const quiet = { info() {}, warn: (m, e) => console.error(m, e), error: (m, e) => console.error(m, e) };
  await serve(new App({ logger: quiet }), { port, host: '127.0.0.1', quiet: true, signals: false });
}

async function sdk(port) {
  const http = await import('node:http');
  const { randomUUID } = await import('node:crypto');
  const { z } = await import('zod');
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = await import(
    '@modelcontextprotocol/sdk/server/streamableHttp.js'
  );
  const sessions = new Map();
  const server = http.createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      if (id !== undefined) {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"no session"}');
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (session) => sessions.set(session, transport),
      });
      const mcpServer = new McpServer({ name: 'bench', version: '1.0.0' });
      mcpServer.registerTool(
        'Notes_readOne',
        {
          inputSchema: { note_id: z.string() },
          outputSchema: { id: z.string(), text: z.string() },
        },
        ({ note_id }) => {
          const note = { ...NOTE, id: note_id };
          return { content: [{ type: 'text', text: JSON.stringify(note) }], structuredContent: note };
        },
      );
      await mcpServer.connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

// ---------------------------------------------------------------- harness
/** Opens an MCP session on `server` (initialize + initialized); resolves with its id. */
async function openSession(server) {
  const post = (body, session) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: ACCEPT,
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL } : {}),
      },
      body: JSON.stringify(body),
    });
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const session = init.headers.get('mcp-session-id');
  await init.text();
  if (init.status !== 200 || session === null)
    throw new Error(`${server.name}: initialize answered ${init.status} (session ${session})`);
  const done = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  await done.text();
  if (done.status !== 202)
    throw new Error(`${server.name}: notifications/initialized answered ${done.status}`);
  return session;
}

function request(server) {
  if (server.name === 'api-route') return { url: `${server.url}/notes/n1` };
  return {
    url: `${server.url}/mcp`,
    method: 'POST',
    body: CALL,
    headers: [`Accept: ${ACCEPT}`, `mcp-session-id: ${server.session}`, `mcp-protocol-version: ${PROTOCOL}`],
  };
}

/** Every server answers the note: directly, or as a tool result whose structured content is it. */
async function check(server) {
  const { url, method, body, headers = [] } = request(server);
  const res = await fetch(url, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...Object.fromEntries(headers.map((h) => h.split(': '))),
    },
  });
  const text = await res.text();
  const answer = JSON.parse(text);
  const note = server.name === 'api-route' ? answer : answer.result?.structuredContent;
  if (res.status !== 200 || JSON.stringify(note) !== JSON.stringify(NOTE) || answer.result?.isError)
    throw new Error(`${server.name}: answered ${res.status} ${text}`);
}

/** One request of `server`'s scenario over a keep-alive `agent`: resolves with its status and text. */
function send(agent, server) {
  const { url, method = 'GET', body, headers = [] } = request(server);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        agent,
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...Object.fromEntries(headers.map((h) => h.split(': '))),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** `n` requests over 8 keep-alive connections; resolves with how many were not 200. */
async function sendMany(agent, server, n) {
  let next = 0;
  let bad = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      let resets = 0;
      while (next++ < n) {
        let answer;
        try {
          answer = await send(agent, server);
        } catch (error) {
          // A keep-alive socket the server closed while idle (valgrind slows it past its timeouts):
          // the request is sent again on a new one, a bounded number of times.
          if (error.code !== 'ECONNRESET' || ++resets > 50) throw error;
          next--;
          continue;
        }
        if (answer.status !== 200) bad++;
      }
    }),
  );
  return bad;
}

/** Instructions per request of one server under callgrind (see the header). */
async function countInstructions(name) {
  const dir = mkdtempSync(join(os.tmpdir(), 'api-mcp-instr-'));
  const out = join(dir, 'callgrind.out');
  const port = await freePort();
  const child = spawn(
    'valgrind',
    ['-q', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath].concat([
      '--single-threaded',
      SELF,
      '--child',
      name,
    ]),
    {
      cwd: BENCH,
      env: { ...process.env, PORT: String(port), NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  try {
    await new Promise((resolve, reject) => {
      child.stdout.on('data', (d) => (String(d).includes('ready') ? resolve() : undefined));
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
    });
    const server = { name, url: `http://127.0.0.1:${port}` };
    if (name.endsWith('-mcp')) server.session = await openSession(server);
    await check(server);
    const WINDOWS = 4;
    const N = 1000;
    let bad = await sendMany(agent, server, 8000);
    spawnSync('callgrind_control', ['--instr=on', String(child.pid)], { stdio: 'ignore' });
    for (let w = 0; w < WINDOWS; w++) {
      bad += await sendMany(agent, server, N);
      spawnSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    const windows = [];
    for (let w = 1; w <= WINDOWS; w++) {
      const total = /^(?:summary|totals):\s*(\d+)/m.exec(readFileSync(`${out}.${w}`, 'utf8'));
      windows.push(Number(total?.[1]) / N);
    }
    const settled = windows.slice(WINDOWS >> 1).sort((a, b) => a - b);
    return { server: name, perRequest: (settled[0] + settled[settled.length - 1]) / 2, windows, bad };
  } finally {
    agent.destroy();
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function instructionsMain(opts) {
  if (spawnSync('valgrind', ['--version']).status !== 0)
    throw new Error('mcp --instructions: valgrind is missing. Run: apt-get install -y valgrind');
  if (opts.build) turboBuild(['@api/mcp...'], '@api/core and @api/mcp');
  const rows = [];
  for (const name of opts.servers) {
    const row = await countInstructions(name);
    rows.push(row);
    console.log(
      `${name.padEnd(10)} ${int(row.perRequest)} instructions per request (windows ${row.windows.map((x) => int(x)).join(' ')})` +
        (row.bad ? `  [${row.bad} answers not 200]` : ''),
    );
  }
  const of = (name) => rows.find((r) => r.server === name)?.perRequest;
  const parts = [];
  if (of('api-mcp') && of('api-route')) parts.push(`tool call/route ${r2(of('api-mcp') / of('api-route'))}`);
  if (of('api-mcp') && of('sdk-mcp')) parts.push(`api/sdk ${r2(of('api-mcp') / of('sdk-mcp'))}`);
  console.log(`mcp instructions: ${parts.join('; ')}`);
}

async function main() {
  const opts = sideBySideArgs(process.argv.slice(2), {
    servers: ALL_SERVERS,
    defaults: { quietWaitMs: 60_000, instructions: false },
    flags: {
      '--quiet-wait': ['quietWaitMs', (v) => Number(v) * 1000],
      '--instructions': ['instructions', true],
    },
  });
  if (opts.instructions) return instructionsMain(opts);
  requireLinuxTwoCores();
  ensureWrk();
  if (opts.build) turboBuild(['@api/mcp...'], '@api/core and @api/mcp');
  pinSelf();
  const loadBefore = os.loadavg();
  const servers = [];
  try {
    for (const name of opts.servers) {
      const s = await startServer({ name, script: SELF, args: ['--child', name] });
      if (name.endsWith('-mcp')) s.session = await openSession(s);
      servers.push(s);
      await check(s);
    }
    const samples = await sideBySideRounds({
      servers,
      opts,
      quietWaitMs: opts.quietWaitMs,
      warm: (s, seconds) => wrk({ ...request(s), seconds, connections: opts.connections }),
      timed: (s) => timedWrk(s, { ...request(s), seconds: opts.duration, connections: opts.connections }),
      line: (sample) => `${sample.server.padEnd(10)} ${rpsText(sample)}`,
    });
    const rows = medianRows(servers, samples);
    const row = (name) => rows.find((r) => r.server === name);
    const ratios = {};
    if (row('api-mcp') && row('sdk-mcp'))
      ratios.sdk = {
        cpu: row('api-mcp').cpuUsPerReq / row('sdk-mcp').cpuUsPerReq,
        rps: row('api-mcp').rps / row('sdk-mcp').rps,
      };
    if (row('api-mcp') && row('api-route'))
      ratios.route = {
        cpu: row('api-mcp').cpuUsPerReq / row('api-route').cpuUsPerReq,
        rps: row('api-mcp').rps / row('api-route').rps,
      };
    const meta = {
      ...runMeta(loadBefore),
      rounds: opts.rounds,
      duration: opts.duration,
      connections: opts.connections,
      sdk: packageVersion('@modelcontextprotocol/sdk'),
    };
    const base = join(opts.out, `mcp-${fileStamp(meta.date)}`);
    const md = [
      `# MCP tool calls: @api/mcp vs @modelcontextprotocol/sdk ${meta.sdk} (${meta.date})`,
      '',
      'One tool (`Notes_readOne {note_id}` → a small note as structured content) in one session per server;',
      '`api-route` is the operation called directly (`GET /notes/n1`).',
      `wrk -t1 -c${opts.connections}, ${opts.rounds} interleaved rounds × ${opts.duration} s; servers on core ${SERVER_CORE}, wrk on core ${LOAD_CORE}.`,
      `Node ${meta.node}, ${meta.cpu}. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')};`,
      `${samples.filter((x) => x.quietBefore).length}/${samples.length} samples started on a quiet machine (other load ≤ 10%).`,
      '',
      '| server | req/s | server CPU µs/req | p99 ms | peak RSS MB | errors |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.server} | ${int(r.rps)} | ${r.cpuUsPerReq.toFixed(1)} | ${(r.p99Us / 1000).toFixed(2)} | ${(r.peakRssKb / 1024).toFixed(0)} | ${r.errors} |`,
      ),
      '',
      ...(ratios.sdk
        ? [
            `@api/mcp / SDK: CPU per call **${r2(ratios.sdk.cpu)}** (lower is better), req/s **${r2(ratios.sdk.rps)}**.`,
          ]
        : []),
      ...(ratios.route
        ? [
            `A tool call / the operation called directly: CPU **${r2(ratios.route.cpu)}**, req/s ${r2(ratios.route.rps)}.`,
          ]
        : []),
      '',
    ].join('\n');
    writeResults(base, { meta, rows, ratios, samples }, md);
    const parts = [];
    if (ratios.sdk) parts.push(`api/sdk cpu ${r2(ratios.sdk.cpu)} req/s ${r2(ratios.sdk.rps)}`);
    if (ratios.route) parts.push(`tool call/route cpu ${r2(ratios.route.cpu)}`);
    console.log(`mcp: ${parts.join('; ')} → ${base}.md`);
  } finally {
    stopAll();
  }
}

// ---------------------------------------------------------------- entry
await childOrMain((name, port) => (name === 'sdk-mcp' ? sdk(port) : api(port, name === 'api-mcp')), main);
