#!/usr/bin/env node
// Startup cost: time and memory to wire 10 / 100 / 1,000 routes with @api (peers alongside for scale).
// Each measurement runs in a fresh `node --expose-gc` child; median of --repeat runs.
// Usage: pnpm --filter @api/bench startup [--sizes 10,100,1000] [--repeat 3] [--frameworks api,fastify,...]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './report.mjs';
import { argOf, BENCH } from './harness/index.mjs';

const SELF = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const arg = (name, dflt) => argOf(args, name, dflt);

// ---------------------------------------------------------------- child: wire N routes, report
/** Each wirer imports its framework, then returns the wiring step: N GET routes `/r{i}/items/{item_id}` with a validated integer path slot, ready to serve. */
const WIRERS = {
  async api(n) {
    const v = await import('valibot');
    const { BaseApp, Endpoint, Struct, serve } = await import('@api/core');
    const ItemPath = Struct('ItemPath', { item_id: v.pipe(v.number(), v.integer()) });
    const Item = Struct('Item', { itemId: v.number(), limit: v.number() });
    return async () => {
      const classes = Array.from(
        { length: n },
        (_, i) =>
          class extends Endpoint(`/r${i}/items/{item_id}`) {
            get = this.operation({ path: ItemPath, returns: Item }, ({ path }) => ({
              itemId: path.item_id,
              limit: 10,
            }));
          },
      );
      class App extends BaseApp {
        async wire() {
          for (const C of classes) this.includeEndpoint(new C());
        }
      }
      // Wiring happens by the time serve() has resolved (listening on an ephemeral port).
      await serve(new App(), { port: 0, host: '127.0.0.1', quiet: true, signals: false });
    };
  },
  async fastify(n) {
    const { default: Fastify } = await import('fastify');
    return async () => {
      const app = Fastify({ logger: false });
      const schema = {
        params: { type: 'object', properties: { item_id: { type: 'integer' } }, required: ['item_id'] },
        response: {
          200: { type: 'object', properties: { itemId: { type: 'integer' }, limit: { type: 'integer' } } },
        },
      };
      for (let i = 0; i < n; i++)
        app.get(`/r${i}/items/:item_id`, { schema }, (req) => ({ itemId: req.params.item_id, limit: 10 }));
      await app.ready();
    };
  },
  async hono(n) {
    const v = await import('valibot');
    const { Hono } = await import('hono');
    const { vValidator } = await import('@hono/valibot-validator');
    const P = v.object({ item_id: v.pipe(v.string(), v.toNumber(), v.integer()) });
    return async () => {
      const app = new Hono();
      for (let i = 0; i < n; i++)
        app.get(`/r${i}/items/:item_id`, vValidator('param', P), (c) =>
          c.json({ itemId: c.req.valid('param').item_id, limit: 10 }),
        );
      await app.request('/r0/items/1'); // the router compiles on first match
    };
  },
  async express(n) {
    const v = await import('valibot');
    const { default: express } = await import('express');
    const P = v.object({ item_id: v.pipe(v.string(), v.toNumber(), v.integer()) });
    return async () => {
      const app = express();
      for (let i = 0; i < n; i++)
        app.get(`/r${i}/items/:item_id`, (req, res) =>
          res.json({ itemId: v.parse(P, req.params).item_id, limit: 10 }),
        );
    };
  },
};

async function child(fw, n) {
  const ti = process.hrtime.bigint();
  const wire = await WIRERS[fw](n);
  const importMs = Number(process.hrtime.bigint() - ti) / 1e6;
  globalThis.gc();
  const m0 = process.memoryUsage();
  const t = process.hrtime.bigint();
  await wire();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  globalThis.gc();
  const m1 = process.memoryUsage();
  console.log(
    'STARTUP ' +
      JSON.stringify({
        importMs,
        ms,
        heapMb: (m1.heapUsed - m0.heapUsed) / 2 ** 20,
        rssMb: m1.rss / 2 ** 20,
        rssDeltaMb: (m1.rss - m0.rss) / 2 ** 20,
      }),
  );
  process.exit(0);
}

if (args[0] === '--child') {
  await child(args[1], Number(args[2]));
}

// ---------------------------------------------------------------- parent
const sizes = arg('sizes', '10,100,1000').split(',').map(Number);
const repeat = Number(arg('repeat', 3));
const frameworks = arg('frameworks', 'api,fastify,hono,express').split(',');

function apiReady() {
  if (!existsSync(join(BENCH, '../packages/core/dist/index.js')))
    return 'packages/core/dist is missing (run `pnpm --filter @api/core... build`)';
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "console.log(JSON.stringify(Object.keys(await import('@api/core'))))"],
    { cwd: BENCH, encoding: 'utf8' },
  );
  try {
    const keys = JSON.parse(r.stdout.trim().split('\n').pop());
    const missing = ['BaseApp', 'Endpoint', 'Struct', 'serve'].filter((k) => !keys.includes(k));
    return missing.length ? `@api/core lacks exports ${missing.join(', ')}` : null;
  } catch {
    return `@api/core does not import: ${r.stderr.trim().split('\n')[0] ?? ''}`;
  }
}

console.log(
  `startup: wire N routes in a fresh process (median of ${repeat}); import = loading the framework, ` +
    `wire = declaring the routes until ready to serve; heap = heap retained by wiring (after GC); RSS after wiring\n`,
);
console.log(
  `${'framework'.padEnd(10)}${'routes'.padStart(8)}${'import ms'.padStart(11)}${'wire ms'.padStart(11)}${'heap MB'.padStart(10)}${'RSS MB'.padStart(9)}`,
);
for (const fw of frameworks) {
  if (fw === 'api') {
    const why = apiReady();
    if (why) {
      console.log(`${'api'.padEnd(10)}  skipped: ${why}`);
      continue;
    }
  }
  for (const n of sizes) {
    const runs = [];
    for (let k = 0; k < repeat; k++) {
      const r = spawnSync(process.execPath, ['--expose-gc', SELF, '--child', fw, String(n)], {
        cwd: BENCH,
        encoding: 'utf8',
      });
      const line = r.stdout.split('\n').find((l) => l.startsWith('STARTUP '));
      if (!line) {
        console.log(
          `${fw.padEnd(10)}${String(n).padStart(8)}  failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`,
        );
        break;
      }
      runs.push(JSON.parse(line.slice(8)));
    }
    if (runs.length === repeat) {
      const med = (k) => median(runs.map((r) => r[k]));
      console.log(
        `${fw.padEnd(10)}${String(n).padStart(8)}${med('importMs').toFixed(1).padStart(11)}${med('ms').toFixed(1).padStart(11)}${med('heapMb').toFixed(2).padStart(10)}${med('rssMb').toFixed(1).padStart(9)}`,
      );
    }
  }
}
