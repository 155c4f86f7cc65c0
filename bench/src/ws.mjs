#!/usr/bin/env node
// WebSockets: @api/ws against plain `ws` on node:http, in one run, interleaved, servers pinned to
// core 0, this harness and its clients (raw TCP sockets with pre-masked frames, so the load
// generator costs little) to core 1. Per run:
//   1. typed echo: --echo-clients connections each keep --window messages in flight for
//      --seconds; echoes per second, and server CPU µs per echo (from /proc). @api: a
//      WebSocketEndpoint with tagged-Struct framing both ways (validated in, validated and
//      serialized out). Raw: `ws` with the hand-written minimum (JSON.parse, a type check,
//      JSON.stringify of the reply).
//   2. fan-out: --fanout-clients connections; the server sends --messages messages to all of
//      them; time until every client has every message, as messages delivered per second. @api:
//      `Channel.publish` (validated once, encoded once). Raw: `JSON.stringify` once and a loop of
//      `ws.send` over the clients.
//   3. heap per idle connection: (heap after N connected − heap before) / N, both after gc. Raw
//      includes the README's isAlive/ping heartbeat; @api its liveness pings (default 30 s).
// Writes results/ws-<timestamp>.{md,json}. Targets: echo ≥ 0.7× raw msgs/s, fan-out ≥ 0.8× raw,
// heap ≤ 2× raw.
// Usage: pnpm --filter @api/bench ws [--rounds 3] [--seconds 3] [--echo-clients 16] [--window 32]
//          [--fanout-clients 1000] [--messages 100] [--idle-clients 2000] [--servers raw,api]
//          [--no-build] [--out DIR]
import { connect } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './report.mjs';
import { CLK_TCK, readProcTicks, sleep } from './sys.mjs';
import {
  alternatingRounds,
  answerCommands,
  BENCH,
  fileStamp,
  int as k,
  kb,
  LOAD_CORE,
  parseFlags,
  pinSelf,
  r2,
  runMeta,
  requireLinuxTwoCores,
  SERVER_CORE,
  startCommandedServer,
  turboBuild,
  writeResults,
} from './harness/index.mjs';

const SELF = fileURLToPath(import.meta.url);
const SERVERS = ['raw', 'api'];
const TARGETS = { echo: 0.7, fanOut: 0.8, heapPerConnection: 2 };
const ECHO_TEXT = 'hello from the benchmark';
const NOTE_PAD = 'x'.repeat(64);

// ---------------------------------------------------------------- child mode: one server
async function rawServer(port) {
  const { createServer } = await import('node:http');
  const { WebSocketServer } = await import('ws');
  const server = createServer((_req, res) => res.writeHead(426).end());
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024 * 1024 });
  const feed = new Set();
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.isAlive = true;
      ws.on('pong', () => (ws.isAlive = true));
      ws.on('error', () => undefined);
      if (req.url === '/feed') {
        feed.add(ws);
        ws.on('close', () => feed.delete(ws));
        return;
      }
      // The hand-written minimum for a typed echo: parse, check the type, build the reply.
      ws.on('message', (data, isBinary) => {
        if (isBinary) return ws.close(1003);
        let message;
        try {
          message = JSON.parse(data.toString());
        } catch {
          return ws.close(1007);
        }
        if (message?.type !== 'Say' || typeof message.text !== 'string') return ws.close(1008);
        ws.send(JSON.stringify({ type: 'Said', text: message.text }));
      });
    });
  });
  // The ws README's heartbeat.
  setInterval(() => {
    for (const ws of wss.clients) {
      if (!ws.isAlive) ws.terminate();
      ws.isAlive = false;
      ws.ping();
    }
  }, 30_000).unref();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    broadcast(count) {
      for (let n = 0; n < count; n++) {
        const data = JSON.stringify({ type: 'Note', n, pad: NOTE_PAD });
        for (const ws of feed) ws.send(data);
      }
    },
    subscribers: () => feed.size,
  };
}

async function apiServer(port) {
  const v = await import('valibot');
  const { BaseApp, Struct, serve } = await import('@api/core');
  const { Channel, WebSocketEndpoint, websocket } = await import('@api/ws');
  const Say = Struct('Say', { text: v.string() }, { tag: true });
  const Said = Struct('Said', { text: v.string() }, { tag: true });
  const Note = Struct('Note', { n: v.number(), pad: v.string() }, { tag: true });
  const feed = new Channel(Note);
  class Echo extends WebSocketEndpoint('/echo', { inbound: Say, outbound: Said }) {
    handle = this.handler({}, async ({ websocket: ws }) => {
      for await (const { text } of ws) await ws.send({ type: 'Said', text });
    });
  }
  class Feed extends WebSocketEndpoint('/feed', { inbound: 'string', outbound: Note }) {
    handle = this.handler({}, async ({ websocket: ws }) => {
      const subscriber = feed.attach(ws);
      try {
        feed.join(subscriber, 'all');
        for await (const _ of ws);
      } finally {
        subscriber.detach();
      }
    });
  }
  class App extends BaseApp {
    async wire() {
      this.include(websocket(new Echo()));
      this.include(websocket(new Feed()));
    }
  }
  const quiet = { info() {}, warn() {}, error: (m, e) => console.error(m, e) };
  await serve(new App({ logger: quiet }), { port, host: '127.0.0.1', quiet: true, signals: false });
  return {
    broadcast(count) {
      for (let n = 0; n < count; n++) feed.publish('all', { type: 'Note', n, pad: NOTE_PAD });
    },
    subscribers: () => feed.subscribers('all'),
  };
}

// ---------------------------------------------------------------- raw TCP WebSocket clients
/** A masked client text frame (mask key 0: the payload stays as is, the server still unmasks). */
function clientFrame(text) {
  const payload = Buffer.from(text);
  if (payload.length >= 126) throw new Error('bench frames are short');
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

/** Counts complete server frames in a stream of chunks (server frames are unmasked). */
function frameCounter() {
  let pending = Buffer.alloc(0);
  let skip = 0;
  return (chunk) => {
    let count = 0;
    let buf = chunk;
    if (skip > 0) {
      const n = Math.min(skip, buf.length);
      skip -= n;
      buf = buf.subarray(n);
      if (skip === 0 && n > 0) count++;
    }
    if (pending.length > 0) {
      buf = Buffer.concat([pending, buf]);
      pending = Buffer.alloc(0);
    }
    let i = 0;
    while (i < buf.length) {
      if (buf.length - i < 2) break;
      let len = buf[i + 1] & 0x7f;
      let head = 2;
      if (len === 126) {
        if (buf.length - i < 4) break;
        len = buf.readUInt16BE(i + 2);
        head = 4;
      } else if (len === 127) {
        if (buf.length - i < 10) break;
        len = Number(buf.readBigUInt64BE(i + 2));
        head = 10;
      }
      const end = i + head + len;
      if (end > buf.length) {
        skip = end - buf.length;
        i = buf.length;
        break;
      }
      count++;
      i = end;
    }
    if (i < buf.length) pending = Buffer.from(buf.subarray(i));
    return count;
  };
}

/** Opens a raw WebSocket connection; resolves with the socket once the 101 arrived. */
function openSocket(port, path) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let head = Buffer.alloc(0);
    const onData = (chunk) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      if (!head.subarray(0, 12).toString().startsWith('HTTP/1.1 101')) {
        reject(new Error(`handshake refused: ${head.subarray(0, 40)}`));
        return;
      }
      const rest = head.subarray(end + 4);
      resolve({ socket, rest });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(
      `GET ${path} HTTP/1.1\r\nhost: bench\r\nconnection: Upgrade\r\nupgrade: websocket\r\n` +
        'sec-websocket-version: 13\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
  });
}

async function openMany(port, path, count) {
  const out = [];
  for (let i = 0; i < count; i += 100) {
    const batch = Math.min(100, count - i);
    out.push(...(await Promise.all(Array.from({ length: batch }, () => openSocket(port, path)))));
  }
  return out;
}

// ---------------------------------------------------------------- harness
function parseArgs(argv) {
  return {
    rounds: 3,
    seconds: 3,
    echoClients: 16,
    window: 32,
    fanoutClients: 1000,
    messages: 100,
    idleClients: 2000,
    build: true,
    out: join(BENCH, 'results'),
    servers: SERVERS,
    ...parseFlags(argv, {
      '--rounds': ['rounds', 'number'],
      '--seconds': ['seconds', 'number'],
      '--echo-clients': ['echoClients', 'number'],
      '--window': ['window', 'number'],
      '--fanout-clients': ['fanoutClients', 'number'],
      '--messages': ['messages', 'number'],
      '--idle-clients': ['idleClients', 'number'],
      '--no-build': ['build', false],
      '--servers': ['servers', 'list'],
      '--out': ['out', 'string'],
    }),
  };
}

/** One server in its own `--expose-gc` process, driven over IPC: `stats(gc)` and `broadcast(count)`. */
async function startChild(kind) {
  const server = await startCommandedServer(kind, SELF);
  return { ...server, broadcast: (count) => server.ask('broadcast', { count }) };
}

const ticks = (pid) => readProcTicks(pid)?.self ?? NaN;

/** Echo throughput: every connection keeps `window` messages in flight for `seconds`. */
async function echo(server, opts) {
  const frame = clientFrame(JSON.stringify({ type: 'Say', text: ECHO_TEXT }));
  const burst = Buffer.concat(Array.from({ length: opts.window }, () => frame));
  const conns = await openMany(server.port, '/echo', opts.echoClients);
  let received = 0;
  let measuring = false;
  let counted = 0;
  for (const { socket } of conns) {
    const count = frameCounter();
    socket.on('data', (chunk) => {
      const n = count(chunk);
      if (n === 0) return;
      received += n;
      if (measuring) counted += n;
      // Refill the window: one new message per echo.
      socket.write(
        n <= opts.window
          ? burst.subarray(0, n * frame.length)
          : Buffer.concat(Array.from({ length: n }, () => frame)),
      );
    });
    socket.write(burst);
  }
  await sleep(500); // warm-up
  const t0 = performance.now();
  const c0 = ticks(server.pid);
  measuring = true;
  await sleep(opts.seconds * 1000);
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = ((ticks(server.pid) - c0) / CLK_TCK) * 1e6;
  for (const { socket } of conns) socket.destroy();
  void received;
  return { echoPerSecond: counted / elapsed, echoCpuUs: cpu / counted };
}

/**
 * Counts the frames `conns` receive from now on: `all` resolves with the time the `total`-th
 * arrived; `off()` stops counting.
 */
function delivered(conns, total) {
  let remaining = total;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  const listeners = conns.map(({ socket }) => {
    const count = frameCounter();
    const onData = (chunk) => {
      remaining -= count(chunk);
      if (remaining === 0) done(performance.now());
    };
    socket.on('data', onData);
    return () => socket.off('data', onData);
  });
  return { all, off: () => listeners.forEach((stop) => stop()) };
}

/** Fan-out: the server sends `messages` messages to every one of `clients`; time to all delivered. */
async function fanOut(server, opts) {
  const conns = await openMany(server.port, '/feed', opts.fanoutClients);
  while ((await server.stats()).subscribers < opts.fanoutClients) await sleep(20);
  const samples = [];
  for (let rep = 0; rep < 5; rep++) {
    const { all, off } = delivered(conns, opts.fanoutClients * opts.messages);
    const c0 = ticks(server.pid);
    const t0 = performance.now();
    await server.broadcast(opts.messages);
    const t1 = await all;
    const cpu = ((ticks(server.pid) - c0) / CLK_TCK) * 1e6;
    off();
    samples.push({ ms: t1 - t0, cpuUs: cpu });
    await sleep(100);
  }
  // One message at a time: latency until every client has it (no burst for corking to batch).
  const single = [];
  for (let rep = 0; rep < 20; rep++) {
    const { all, off } = delivered(conns, opts.fanoutClients);
    const t0 = performance.now();
    await server.broadcast(1);
    single.push((await all) - t0);
    off();
    await sleep(20);
  }
  for (const { socket } of conns) socket.destroy();
  const ms = median(samples.map((s) => s.ms));
  const deliveries = opts.fanoutClients * opts.messages;
  return {
    fanOutOneMs: median(single),
    fanOutMs: ms,
    fanOutPerSecond: deliveries / (ms / 1000),
    fanOutCpuUsPerDelivery: median(samples.map((s) => s.cpuUs)) / deliveries,
  };
}

/** Heap per idle connection. */
async function idleHeap(server, opts) {
  await sleep(200);
  const base = await server.stats(true);
  const conns = await openMany(server.port, '/echo', opts.idleClients);
  await sleep(300);
  const connected = await server.stats(true);
  for (const { socket } of conns) socket.destroy();
  return {
    heapPerConnection: (connected.heapUsed - base.heapUsed) / opts.idleClients,
    externalPerConnection: (connected.external - base.external) / opts.idleClients,
  };
}

async function runOnce(kind, opts) {
  const server = await startChild(kind);
  try {
    await sleep(300);
    const heap = await idleHeap(server, opts);
    await sleep(300);
    const e = await echo(server, opts);
    await sleep(300);
    const f = await fanOut(server, opts);
    return { server: kind, ...heap, ...e, ...f };
  } finally {
    server.child.kill('SIGKILL');
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  requireLinuxTwoCores();
  if (opts.build) turboBuild(['@api/ws...'], '@api/ws and what it needs');
  pinSelf();
  const loadBefore = os.loadavg();
  const runs = await alternatingRounds({
    kinds: opts.servers,
    rounds: opts.rounds,
    run: (kind) => runOnce(kind, opts),
    onRun: (r) =>
      console.log(
        `r${r.round + 1} ${r.server.padEnd(4)} echo ${k(r.echoPerSecond)}/s (${r2(r.echoCpuUs)} µs cpu)` +
          `  fan-out ${k(r.fanOutPerSecond)}/s (${r2(r.fanOutMs)} ms; one ${r2(r.fanOutOneMs)} ms)  heap/conn ${kb(r.heapPerConnection)} KiB`,
      ),
  });
  if (opts.servers.length < 2) return;
  const of = (kind, key) => median(runs.filter((r) => r.server === kind).map((r) => r[key]));
  const keys = [
    'echoPerSecond',
    'echoCpuUs',
    'fanOutPerSecond',
    'fanOutMs',
    'fanOutCpuUsPerDelivery',
    'fanOutOneMs',
    'heapPerConnection',
    'externalPerConnection',
  ];
  const summary = {};
  for (const kind of SERVERS) summary[kind] = Object.fromEntries(keys.map((key) => [key, of(kind, key)]));
  const ratios = {
    echo: summary.api.echoPerSecond / summary.raw.echoPerSecond,
    echoCpu: summary.api.echoCpuUs / summary.raw.echoCpuUs,
    fanOut: summary.api.fanOutPerSecond / summary.raw.fanOutPerSecond,
    heapPerConnection: summary.api.heapPerConnection / summary.raw.heapPerConnection,
  };
  const verdicts = {
    echo: ratios.echo >= TARGETS.echo,
    fanOut: ratios.fanOut >= TARGETS.fanOut,
    heapPerConnection: ratios.heapPerConnection <= TARGETS.heapPerConnection,
  };
  const meta = {
    ...runMeta(loadBefore),
    options: { ...opts, out: undefined },
    targets: TARGETS,
  };
  const base = join(opts.out, `ws-${fileStamp(meta.date)}`);
  const md = [
    `# WebSockets: @api/ws vs plain ws (${meta.date})`,
    '',
    `Servers on core ${SERVER_CORE}, harness and raw-TCP clients on core ${LOAD_CORE}; ${opts.rounds} interleaved rounds. ` +
      `Node ${meta.node}, ${meta.cpu}. Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, ` +
      `after: ${meta.loadavgAfter.map((x) => x.toFixed(2)).join(' ')}.`,
    '',
    `- **Echo**: ${opts.echoClients} connections × ${opts.window} messages in flight for ${opts.seconds} s. @api: a`,
    '  `WebSocketEndpoint` with tagged Structs both ways. Raw: `ws` with `JSON.parse`, a type check and',
    '  `JSON.stringify` of the reply.',
    `- **Fan-out**: ${opts.messages} messages to ${opts.fanoutClients} connections, until every client has every`,
    '  message (median of 5). @api: `Channel.publish`. Raw: `JSON.stringify` once, then `ws.send` in a loop.',
    '  `Channel` corks each socket for the tick, so a burst reaches a client as one write (one syscall); the raw loop',
    '  writes once per message. The single-message row shows the case with nothing to batch.',
    `- **Heap**: ${opts.idleClients} idle connections, heap after gc. Raw with the ws README heartbeat; @api with its`,
    '  liveness pings and a handler awaiting the next message.',
    '',
    '| metric | raw | @api | @api / raw | target | ok |',
    '|---|---|---|---|---|---|',
    `| typed echo, messages/s | ${k(summary.raw.echoPerSecond)} | ${k(summary.api.echoPerSecond)} | ${r2(ratios.echo)} | ≥ ${TARGETS.echo} | ${verdicts.echo ? 'yes' : 'NO'} |`,
    `| echo, server CPU µs per message | ${r2(summary.raw.echoCpuUs)} | ${r2(summary.api.echoCpuUs)} | ${r2(ratios.echoCpu)} | | |`,
    `| fan-out to ${opts.fanoutClients}, deliveries/s | ${k(summary.raw.fanOutPerSecond)} | ${k(summary.api.fanOutPerSecond)} | ${r2(ratios.fanOut)} | ≥ ${TARGETS.fanOut} | ${verdicts.fanOut ? 'yes' : 'NO'} |`,
    `| fan-out, server CPU µs per delivery | ${r2(summary.raw.fanOutCpuUsPerDelivery)} | ${r2(summary.api.fanOutCpuUsPerDelivery)} | ${r2(summary.api.fanOutCpuUsPerDelivery / summary.raw.fanOutCpuUsPerDelivery)} | | |`,
    `| one message to all ${opts.fanoutClients} (ms, median of 20) | ${r2(summary.raw.fanOutOneMs)} | ${r2(summary.api.fanOutOneMs)} | ${r2(summary.api.fanOutOneMs / summary.raw.fanOutOneMs)} | | |`,
    `| heap per idle connection (KiB) | ${kb(summary.raw.heapPerConnection)} | ${kb(summary.api.heapPerConnection)} | ${r2(ratios.heapPerConnection)} | ≤ ${TARGETS.heapPerConnection} | ${verdicts.heapPerConnection ? 'yes' : 'NO'} |`,
    '',
    'Runs:',
    '',
    '| round | server | echo/s | echo µs cpu | fan-out/s | fan-out ms | one message ms | heap/conn KiB |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.round + 1} | ${r.server} | ${k(r.echoPerSecond)} | ${r2(r.echoCpuUs)} | ${k(r.fanOutPerSecond)} | ${r2(r.fanOutMs)} | ${r2(r.fanOutOneMs)} | ${kb(r.heapPerConnection)} |`,
    ),
    '',
  ].join('\n');
  writeResults(base, { meta, summary, ratios, verdicts, runs }, md);
  console.log(
    `ws: echo api/raw ${r2(ratios.echo)}; fan-out api/raw ${r2(ratios.fanOut)}; heap/conn api/raw ${r2(ratios.heapPerConnection)} → ${base}.md`,
  );
  if (!Object.values(verdicts).every(Boolean)) process.exitCode = 1;
}

// ---------------------------------------------------------------- entry
if (process.argv[2] === '--child') {
  const kind = process.argv[3];
  const server = await (kind === 'api' ? apiServer : rawServer)(Number(process.env.PORT));
  answerCommands({
    broadcast(msg, reply) {
      server.broadcast(msg.count);
      reply();
    },
    stats: () => ({ subscribers: server.subscribers() }),
  });
  console.log('ready');
} else await main();
