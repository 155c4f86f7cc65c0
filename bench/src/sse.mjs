#!/usr/bin/env node
// SSE fan-out: @api/streaming (SSEResponse) against a raw node:http SSE server, in one run,
// interleaved, servers pinned to core 0, this harness and its clients to core 1. Per run:
//   1. heap per idle connection: (heap after N clients connected − heap before) / N, both after gc;
//   2. fan-out: the time for one event to reach all N clients (median of --events broadcasts);
//   3. cleanup: after every client disconnects, the time until the server's timers, sockets and
//      subscriber count are back to their baseline (must be ≤ 1 s).
// Writes results/sse-<timestamp>.{md,json}. Targets: heap ≤ 2× raw, fan-out ≤ 1.5× raw, cleanup ≤ 1 s.
// Usage: pnpm --filter @api/bench sse [--clients 2000] [--events 20] [--rounds 3] [--servers raw,api]
//          [--no-build] [--out DIR]
import { connect } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './report.mjs';
import { sleep } from './sys.mjs';
import {
  alternatingRounds,
  answerCommands,
  BENCH,
  fileStamp,
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
  waitQuietMachine,
  writeResults,
} from './harness/index.mjs';

const SELF = fileURLToPath(import.meta.url);
const SERVERS = ['raw', 'api'];
const TARGETS = { heapPerConnection: 2, fanOut: 1.5, cleanupMs: 1000 };
const PRIMER = 'retry: 5000\n\n'; // both servers open every stream with it, so the head goes out at once

// ---------------------------------------------------------------- child mode: one server
/**
 * A subscription hub: `subscribe()` returns an async iterator whose `return()` unsubscribes at
 * once, even while a `next()` is pending (what a stream source for fan-out must do).
 */
class Hub {
  subscribers = new Set();
  subscribe(first) {
    const queue = [first];
    let wake;
    let done = false;
    const push = (value) => {
      if (wake) {
        const w = wake;
        wake = undefined;
        w({ value, done: false });
      } else queue.push(value);
    };
    this.subscribers.add(push);
    const hub = this;
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      next() {
        if (queue.length > 0) return Promise.resolve({ value: queue.shift(), done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (wake = resolve));
      },
      return() {
        done = true;
        hub.subscribers.delete(push);
        const w = wake;
        wake = undefined;
        w?.({ value: undefined, done: true });
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
  publish(value) {
    for (const push of this.subscribers) push(value);
  }
}

async function rawServer(port) {
  const { createServer } = await import('node:http');
  const clients = new Set();
  const server = createServer((req, res) => {
    if (req.url !== '/events') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(PRIMER);
    // The usual hand-written keepalive: one interval per connection.
    const timer = setInterval(() => res.write(': ping\n\n'), 15_000);
    clients.add(res);
    res.on('close', () => {
      clearInterval(timer);
      clients.delete(res);
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    broadcast(seq) {
      const frame = `data: ${JSON.stringify({ seq, message: `event ${seq}` })}\n\n`;
      for (const res of clients) res.write(frame);
    },
    subscribers: () => clients.size,
  };
}

async function apiServer(port) {
  const v = await import('valibot');
  const { BaseApp, Endpoint, Struct, serve } = await import('@api/core');
  const { SSEResponse, ServerSentEvent } = await import('@api/streaming');
  const Notice = Struct('Notice', { seq: v.number(), message: v.string() });
  const hub = new Hub();
  class Events extends Endpoint('/events') {
    get = this.operation({ returns: SSEResponse.of(Notice) }, () => {
      // A field-only event opens the stream (the head is sent with the first item).
      return new SSEResponse({ stream: hub.subscribe(new ServerSentEvent({ retry: 5000 })), keepalive: 15 });
    });
  }
  class App extends BaseApp {
    async wire() {
      this.includeEndpoint(new Events());
    }
  }
  const quiet = { info() {}, warn() {}, error: (m, e) => console.error(m, e) };
  await serve(new App({ logger: quiet }), { port, host: '127.0.0.1', quiet: true, signals: false });
  return {
    broadcast: (seq) => hub.publish({ seq, message: `event ${seq}` }),
    subscribers: () => hub.subscribers.size,
  };
}

function resources() {
  const counts = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

// ---------------------------------------------------------------- harness
function parseArgs(argv) {
  return {
    clients: 2000,
    events: 20,
    rounds: 3,
    build: true,
    out: join(BENCH, 'results'),
    servers: SERVERS,
    ...parseFlags(argv, {
      '--clients': ['clients', 'number'],
      '--events': ['events', 'number'],
      '--rounds': ['rounds', 'number'],
      '--no-build': ['build', false],
      '--servers': ['servers', 'list'],
      '--out': ['out', 'string'],
    }),
  };
}

/** One server in its own `--expose-gc` process, driven over IPC: `stats(gc)` and `broadcast(seq)`. */
async function startChild(kind) {
  const server = await startCommandedServer(kind, SELF);
  return { ...server, broadcast: (seq) => server.ask('broadcast', { seq }) };
}

/** One client: a raw socket that reads the stream and reports each event `seq` it sees. */
function openClient(port, onSeq) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let tail = '';
    let primed = false;
    socket.setEncoding('latin1');
    socket.on('error', (e) => (primed ? undefined : reject(e)));
    socket.on('data', (text) => {
      const scan = tail + text;
      tail = scan.slice(-64);
      if (!primed && scan.includes(PRIMER)) {
        primed = true;
        resolve(socket);
      }
      const re = /"seq":(\d+)/g;
      for (let m = re.exec(scan); m; m = re.exec(scan)) onSeq(Number(m[1]), socket);
    });
    socket.write('GET /events HTTP/1.1\r\nhost: bench\r\naccept: text/event-stream\r\n\r\n');
  });
}

async function runOnce(kind, opts) {
  const machine = await waitQuietMachine();
  const server = await startChild(kind);
  try {
    await sleep(300);
    const base = await server.stats(true);
    const seen = new Map(); // seq → Set of sockets that saw it (the tail scan may report a seq twice)
    let waiting;
    const onSeq = (seq, socket) => {
      let set = seen.get(seq);
      if (!set) seen.set(seq, (set = new Set()));
      set.add(socket);
      if (waiting && waiting.seq === seq && set.size === opts.clients) waiting.resolve(performance.now());
    };
    const sockets = [];
    for (let i = 0; i < opts.clients; i += 100) {
      const batch = Math.min(100, opts.clients - i);
      sockets.push(
        ...(await Promise.all(Array.from({ length: batch }, () => openClient(server.port, onSeq)))),
      );
    }
    await sleep(300);
    const connected = await server.stats(true);
    const heapPerConnection = (connected.heapUsed - base.heapUsed) / opts.clients;
    const externalPerConnection = (connected.external - base.external) / opts.clients;

    const fanOutMs = [];
    const serverMs = [];
    const serverCpuMs = [];
    for (let seq = 1; seq <= opts.events; seq++) {
      const arrived = new Promise((resolve) => (waiting = { seq, resolve }));
      const t0 = performance.now();
      const [server_, at] = await Promise.all([server.broadcast(seq), arrived]);
      fanOutMs.push(at - t0);
      serverMs.push(server_.serverMs);
      serverCpuMs.push(server_.serverCpuMs);
      await sleep(50);
    }

    const before = await server.stats();
    const leftAt = performance.now();
    for (const socket of sockets) socket.destroy();
    let cleanupMs = Number.POSITIVE_INFINITY;
    let after = before;
    while (performance.now() - leftAt < 3000) {
      after = await server.stats();
      if (
        after.timers <= base.timers &&
        after.sockets <= base.sockets &&
        after.subscribers === base.subscribers
      ) {
        cleanupMs = performance.now() - leftAt;
        break;
      }
      await sleep(10);
    }
    const settled = await server.stats(true);
    return {
      server: kind,
      quietBefore: machine.quiet,
      otherLoadBefore: machine.other,
      clients: opts.clients,
      heapPerConnection,
      externalPerConnection,
      fanOutMs,
      fanOutMedianMs: median(fanOutMs),
      serverMs,
      serverMedianMs: median(serverMs),
      serverCpuMedianMs: median(serverCpuMs),
      cleanupMs,
      baseline: base,
      connected,
      beforeDisconnect: before,
      afterCleanup: after,
      heapAfterGcDelta: settled.heapUsed - base.heapUsed,
    };
  } finally {
    server.child.kill('SIGKILL');
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  requireLinuxTwoCores();
  if (opts.build) turboBuild(['@api/streaming...'], '@api/core and @api/streaming');
  pinSelf();
  const loadBefore = os.loadavg();
  const runs = await alternatingRounds({
    kinds: opts.servers,
    rounds: opts.rounds,
    run: (kind) => runOnce(kind, opts),
    onRun: (r) =>
      console.log(
        `r${r.round + 1} ${r.server.padEnd(4)} heap/conn ${kb(r.heapPerConnection)} KiB  fan-out median ${r2(r.fanOutMedianMs)} ms` +
          `  (server ${r2(r.serverMedianMs)} ms, cpu ${r2(r.serverCpuMedianMs)} ms)` +
          `  cleanup ${Number.isFinite(r.cleanupMs) ? `${r.cleanupMs.toFixed(0)} ms` : 'NOT within 3 s'}` +
          (r.quietBefore ? '' : `  [machine busy before: ${(r.otherLoadBefore * 100).toFixed(0)}%]`),
      ),
  });
  if (opts.servers.length < 2) return; // a smoke run of one server: no ratios, no report
  const of = (kind, key) => median(runs.filter((r) => r.server === kind).map((r) => r[key]));
  const summary = {};
  for (const kind of SERVERS)
    summary[kind] = {
      heapPerConnectionBytes: of(kind, 'heapPerConnection'),
      externalPerConnectionBytes: of(kind, 'externalPerConnection'),
      fanOutMs: of(kind, 'fanOutMedianMs'),
      serverMs: of(kind, 'serverMedianMs'),
      serverCpuMs: of(kind, 'serverCpuMedianMs'),
      cleanupMsMax: Math.max(...runs.filter((r) => r.server === kind).map((r) => r.cleanupMs)),
    };
  const ratios = {
    heapPerConnection: summary.api.heapPerConnectionBytes / summary.raw.heapPerConnectionBytes,
    fanOut: summary.api.fanOutMs / summary.raw.fanOutMs,
    serverFanOut: summary.api.serverMs / summary.raw.serverMs,
    serverFanOutCpu: summary.api.serverCpuMs / summary.raw.serverCpuMs,
  };
  const verdicts = {
    heapPerConnection: ratios.heapPerConnection <= TARGETS.heapPerConnection,
    fanOut: ratios.fanOut <= TARGETS.fanOut,
    cleanup: summary.api.cleanupMsMax <= TARGETS.cleanupMs,
  };
  const meta = {
    ...runMeta(loadBefore),
    clients: opts.clients,
    events: opts.events,
    rounds: opts.rounds,
    targets: TARGETS,
  };
  const base = join(opts.out, `sse-${fileStamp(meta.date)}`);
  const md = [
    `# SSE fan-out: @api/streaming vs raw node:http (${meta.date})`,
    '',
    `${opts.clients} idle SSE clients (raw sockets, harness on core ${LOAD_CORE}), servers on core ${SERVER_CORE}; ` +
      `${opts.rounds} interleaved rounds; ${opts.events} broadcasts per run. Node ${meta.node}, ${meta.cpu}. ` +
      `Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(' ')}; ` +
      `${runs.filter((r) => r.quietBefore).length}/${runs.length} runs started on a quiet machine (other load ≤ 10%).`,
    '',
    'Both servers: `text/event-stream`, `cache-control: no-cache`, a `retry: 5000` primer, a 15 s keepalive per',
    'connection (raw: `setInterval`; @api: `keepalive: 15`, idle-reset). Raw encodes each event once and writes it to',
    'every response; @api validates and serializes per client through `SSEResponse.of(Notice)` from a hub iterator.',
    '',
    '| metric | raw | @api | @api / raw | target | ok |',
    '|---|---|---|---|---|---|',
    `| heap per idle connection (KiB) | ${kb(summary.raw.heapPerConnectionBytes)} | ${kb(summary.api.heapPerConnectionBytes)} | ${r2(ratios.heapPerConnection)} | ≤ ${TARGETS.heapPerConnection} | ${verdicts.heapPerConnection ? 'yes' : 'NO'} |`,
    `| one event to all ${opts.clients} clients (ms, median) | ${r2(summary.raw.fanOutMs)} | ${r2(summary.api.fanOutMs)} | ${r2(ratios.fanOut)} | ≤ ${TARGETS.fanOut} | ${verdicts.fanOut ? 'yes' : 'NO'} |`,
    `| server side of one fan-out: command → all writes queued (ms, median) | ${r2(summary.raw.serverMs)} | ${r2(summary.api.serverMs)} | ${r2(ratios.serverFanOut)} | | |`,
    `| server CPU for one fan-out (ms, median) | ${r2(summary.raw.serverCpuMs)} | ${r2(summary.api.serverCpuMs)} | ${r2(ratios.serverFanOutCpu)} | | |`,
    `| timers, sockets, subscribers back to baseline after disconnect (ms, worst run) | ${summary.raw.cleanupMsMax.toFixed(0)} | ${summary.api.cleanupMsMax.toFixed(0)} | | ≤ ${TARGETS.cleanupMs} ms | ${verdicts.cleanup ? 'yes' : 'NO'} |`,
    '',
    'Runs:',
    '',
    '| round | server | quiet before | heap/conn KiB | fan-out median ms | fan-out min–max ms | server ms | server CPU ms | cleanup ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.round + 1} | ${r.server} | ${r.quietBefore ? 'yes' : `no (${(r.otherLoadBefore * 100).toFixed(0)}%)`} | ${kb(r.heapPerConnection)} | ${r2(r.fanOutMedianMs)} | ${r2(Math.min(...r.fanOutMs))}–${r2(Math.max(...r.fanOutMs))} | ${r2(r.serverMedianMs)} | ${r2(r.serverCpuMedianMs)} | ${r.cleanupMs.toFixed(0)} |`,
    ),
    '',
  ].join('\n');
  writeResults(base, { meta, summary, ratios, verdicts, runs }, md);
  console.log(
    `sse: heap/conn api/raw ${r2(ratios.heapPerConnection)}; fan-out api/raw ${r2(ratios.fanOut)}; cleanup ${summary.api.cleanupMsMax.toFixed(0)} ms → ${base}.md`,
  );
  if (!Object.values(verdicts).every(Boolean)) process.exitCode = 1;
}

// ---------------------------------------------------------------- entry
if (process.argv[2] === '--child') {
  const kind = process.argv[3];
  const server = await (kind === 'api' ? apiServer : rawServer)(Number(process.env.PORT));
  answerCommands({
    broadcast(msg, reply) {
      // Server-side cost of one fan-out: from the command to the end of everything it queued
      // (writes, microtasks, uncorks), wall time and CPU time.
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      server.broadcast(msg.seq);
      setImmediate(() => {
        const cpu = process.cpuUsage(c0);
        reply({ serverMs: performance.now() - t0, serverCpuMs: (cpu.user + cpu.system) / 1000 });
      });
    },
    stats() {
      const r = resources();
      return { timers: r.Timeout ?? 0, sockets: r.TCPSocketWrap ?? 0, subscribers: server.subscribers() };
    },
  });
  console.log('ready');
} else await main();
