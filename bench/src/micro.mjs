#!/usr/bin/env node
// In-process micro-benchmark (no sockets): ns per request through each framework's dispatch.
//   raw, express, hono-node, api : their node:http (req, res) listener driven by light-my-request
//   fastify                       : fastify.inject (built on light-my-request: same request/response fakes)
//   hono-fetch                    : Hono's app.request (WHATWG Request/Response, no node adapter)
//   raw-fake, api-fake            : the listener driven by minimal fake req/res objects (no light-my-request)
//   lmr-noop                      : light-my-request with a do-nothing listener (its own cost; `net` rows subtract it)
// Usage: pnpm --filter @api/bench micro [--iterations N] [--rounds N] [--targets raw,fastify,...] [--scenarios info,...]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EventEmitter } from 'node:events';
import inject from 'light-my-request';
import { SCENARIOS } from './scenarios.mjs';
import { median } from './report.mjs';
import { argOf, BENCH, pinSelfIfPossible, SERVER_CORE } from './harness/index.mjs';

const args = process.argv.slice(2);
const arg = (name, dflt) => argOf(args, name, dflt);
const ITER = Number(arg('iterations', 20_000));
const ROUNDS = Number(arg('rounds', 5));
const WARMUP = Math.max(1000, ITER >> 1);
const onlyTargets = arg('targets')?.split(',');
const scenarios = SCENARIOS.filter((s) => !arg('scenarios') || arg('scenarios').split(',').includes(s.name));

// Pin to one core for steadier numbers (best effort).
pinSelfIfPossible(SERVER_CORE);

const server = (name) => import(pathToFileURL(join(BENCH, 'servers', `${name}.mjs`)).href);

function lmrOptions(sc) {
  const headers = {};
  if (sc.auth) headers.authorization = sc.auth;
  if (sc.body !== undefined) headers['content-type'] = 'application/json';
  return {
    method: sc.method,
    url: sc.path,
    headers,
    payload: sc.body === undefined ? undefined : JSON.stringify(sc.body),
  };
}

/** Each target: name → async (scenario) => (() => Promise<status>) */
const targets = [];
const viaListener = (name, listener) =>
  targets.push({
    name,
    prepare: (sc) => {
      const o = lmrOptions(sc);
      return async () => (await inject(listener, o)).statusCode;
    },
  });

// Baseline: light-my-request itself, with a listener that does nothing but answer. `net` rows subtract it.
const noop = (sc) => (req, res) => {
  req.resume();
  res.writeHead(sc.expect, { 'content-type': 'application/json', 'content-length': 2 });
  res.end('{}');
};
targets.push({
  name: 'lmr-noop',
  prepare: (sc) => {
    const o = lmrOptions(sc);
    const l = noop(sc);
    return async () => (await inject(l, o)).statusCode;
  },
});
viaListener('raw', (await server('raw')).listener);

// Lightweight fakes: just the node:http surface a lean listener touches (url, method, headers, data/end;
// writeHead/setHeader/getHeader/end). Far cheaper than light-my-request, so dispatch cost dominates.
// Works for listeners that do not depend on http internals (raw, and @api if it sticks to that surface).
class FakeReq extends EventEmitter {
  constructor(o) {
    super();
    this.method = o.method;
    this.url = o.url;
    this.headers = o.headers;
    this.rawHeaders = Object.entries(o.headers ?? {}).flat();
    this.headersDistinct = Object.fromEntries(Object.entries(o.headers ?? {}).map(([k, v]) => [k, [v]]));
    this.payload = o.payload === undefined ? undefined : Buffer.from(o.payload);
  }
  resume() {
    return this;
  }
  // Like a socket's readable side, the body waits until someone reads it ('data' listener or resume()).
  on(event, fn) {
    super.on(event, fn);
    if (event === 'data' && !this.flowing) {
      this.flowing = true;
      queueMicrotask(() => {
        if (this.payload !== undefined) this.emit('data', this.payload);
        this.emit('end');
      });
    }
    return this;
  }
  start() {}
}
class FakeRes extends EventEmitter {
  constructor(done) {
    super();
    this.done = done;
    this.statusCode = 200;
    this.headers = {};
    this.headersSent = false;
    this.writableEnded = false;
  }
  setHeader(k, v) {
    this.headers[k.toLowerCase()] = v;
    return this;
  }
  getHeader(k) {
    return this.headers[k.toLowerCase()];
  }
  removeHeader(k) {
    delete this.headers[k.toLowerCase()];
  }
  hasHeader(k) {
    return k.toLowerCase() in this.headers;
  }
  writeHead(status, headers) {
    this.statusCode = status;
    if (Array.isArray(headers))
      for (let i = 0; i < headers.length; i += 2) this.headers[headers[i].toLowerCase()] = headers[i + 1];
    else if (headers) for (const k in headers) this.headers[k.toLowerCase()] = headers[k];
    this.headersSent = true;
    return this;
  }
  write(chunk) {
    this.body = this.body === undefined ? chunk : this.body + chunk;
    return true;
  }
  end(chunk) {
    if (chunk !== undefined) this.write(chunk);
    this.writableEnded = true;
    this.headersSent = true;
    this.emit('finish');
    this.emit('close');
    this.done(this.statusCode);
  }
}
const viaFakes = (name, listener) =>
  targets.push({
    name,
    prepare: (sc) => {
      const o = lmrOptions(sc);
      return () =>
        new Promise((resolve) => {
          const req = new FakeReq(o);
          listener(req, new FakeRes(resolve));
          req.start();
        });
    },
  });
viaFakes('raw-fake', (await server('raw')).listener);

const fastify = (await server('fastify')).build();
await fastify.ready();
targets.push({
  name: 'fastify',
  prepare: (sc) => {
    const o = lmrOptions(sc);
    return async () => (await fastify.inject(o)).statusCode;
  },
});

const hono = await server('hono');
targets.push({
  name: 'hono-fetch',
  prepare: (sc) => {
    const url = `http://localhost${sc.path}`;
    const { method, headers, payload } = lmrOptions(sc);
    return async () => {
      const res = await hono.app.request(url, { method, headers, body: payload });
      await res.text();
      return res.status;
    };
  },
});
viaListener('hono-node', hono.listener);
viaListener('express', (await server('express')).listener);

const notes = [];
if (!existsSync(join(BENCH, 'servers/api.mjs'))) {
  notes.push('servers/api.mjs is missing: @api is skipped.');
} else {
  try {
    const api = await server('api');
    if (typeof api.listener === 'function') {
      viaListener('api', api.listener);
      viaFakes('api-fake', api.listener);
      // Same routes, plus middleware/auth/CORS mounted on other paths: /info must not pay for them.
      viaFakes('api-busy-fake', (await server('api-busy')).listener);
    } else notes.push('servers/api.mjs exports no `listener` ((req, res) function): @api is skipped.');
  } catch (e) {
    notes.push(`servers/api.mjs does not load (${e.message}): @api is skipped.`);
  }
}
for (const n of notes) console.log(`note: ${n}`);

const active = targets.filter((t) => !onlyTargets || onlyTargets.includes(t.name));
console.log(
  `micro: ${ITER} requests × ${ROUNDS} rounds per target and scenario (warm-up ${WARMUP}); ns per request, median of rounds\n`,
);

const results = {};
for (const sc of scenarios) {
  results[sc.name] = {};
  const fns = active.map((t) => ({ t, fn: t.prepare(sc) }));
  for (const { t, fn } of fns) {
    const status = await fn();
    if (status !== sc.expect) {
      console.log(`note: ${t.name} ${sc.name}: status ${status}, want ${sc.expect}: skipped`);
      fn.skip = true;
      continue;
    }
    for (let i = 0; i < WARMUP; i++) await fn();
  }
  const per = new Map(fns.map((f) => [f.t.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const { t, fn } of fns) {
      if (fn.skip) continue;
      const start = process.hrtime.bigint();
      for (let i = 0; i < ITER; i++) await fn();
      per.get(t.name).push(Number(process.hrtime.bigint() - start) / ITER);
    }
  }
  for (const [name, xs] of per) if (xs.length) results[sc.name][name] = median(xs);
}

// Table: ns/request and ratio to raw.
const names = active.map((t) => t.name);
const pad = (s, n) => String(s).padStart(n);
console.log(`${'scenario'.padEnd(10)}${names.map((n) => pad(n, 14)).join('')}`);
for (const sc of scenarios) {
  const row = results[sc.name];
  console.log(
    `${sc.name.padEnd(10)}${names.map((n) => pad(row[n] ? `${Math.round(row[n])} ns` : 'n/a', 14)).join('')}`,
  );
  console.log(
    `${'  ×raw'.padEnd(10)}${names.map((n) => pad(row[n] && row.raw ? (row[n] / row.raw).toFixed(2) : 'n/a', 14)).join('')}`,
  );
  const base = row['lmr-noop'];
  if (base) {
    const net = (n) =>
      n === 'hono-fetch' || n === 'lmr-noop' || n.endsWith('-fake') || !row[n] ? NaN : row[n] - base;
    console.log(
      `${'  net'.padEnd(10)}${names.map((n) => pad(Number.isFinite(net(n)) ? `${Math.round(net(n))} ns` : '', 14)).join('')}`,
    );
    console.log(
      `${'  net×raw'.padEnd(10)}${names.map((n) => pad(Number.isFinite(net(n)) && net('raw') > 0 ? (net(n) / net('raw')).toFixed(2) : '', 14)).join('')}`,
    );
  }
}
console.log(
  "\nraw, hono-node, express and api include light-my-request's fake req/res cost (as does fastify.inject); " +
    "`net` subtracts lmr-noop (light-my-request with a do-nothing listener). hono-fetch is Hono's app.request " +
    '(no node adapter, no light-my-request), so compare it by its raw ns only. *-fake rows drive the listener with ' +
    'minimal fake req/res objects (compare raw-fake with api-fake).',
);
await fastify.close();
