// The sources of `typecheck-cost --client`: the generated @api app (typecheck.mjs) plus an
// @api/client call to every route, and the same routes as a Hono app plus an `hc` call to every
// route. Each call reads what a frontend reads: the success data's fields, and (for @api) a
// declared failure's Problem.

/** `generateApp`'s resource and endpoint counts for `n` routes (the same arithmetic). */
export function shape(n) {
  const resources = Math.round((n * 0.6) / 5);
  const endpoints = Math.round((n - resources * 5) / 2);
  return { resources, endpoints };
}

/** @api: the app's source followed by a client typed from its route classes, calling every route. */
export function apiClientSource(appSource, n) {
  const { resources, endpoints } = shape(n);
  const out = [
    appSource,
    `import { createClient, route, type Authenticated } from '@api/client';`,
    `export const api = createClient({`,
    `  baseUrl: 'http://localhost',`,
    `  routes: {`,
  ];
  for (let i = 0; i < resources; i++) {
    const cls = i % 2 === 0 ? `Authenticated<Thing${i}Resource>` : `Thing${i}Resource`;
    out.push(`    thing${i}: route<${cls}>('/shops/{shop_id}/things-${i}'),`);
  }
  for (let i = 0; i < endpoints; i++) {
    const cls = i % 2 === 0 ? `Authenticated<Hook${i}Endpoint>` : `Hook${i}Endpoint`;
    out.push(`    hook${i}: route<${cls}>('/hooks-${i}'),`);
  }
  out.push(`  },`, `});`);
  // One function per mount (a single function this long is past tsc's control-flow limit).
  for (let i = 0; i < resources; i++) {
    const t = `api.thing${i}`;
    out.push(
      `export async function callThing${i}(seen: unknown[]): Promise<void> {`,
      `  { const a = await ${t}.create({ path: { shop_id: 's' }, json: { name: 'n', priceCents: 1 } }); if (a.ok) seen.push(a.data.name); else if (a.status === 422) seen.push(a.error.params.reason); }`,
      `  { const a = await ${t}.readMany({ path: { shop_id: 's' }, params: { limit: 10 } }); if (a.ok) seen.push(a.data[0]?.priceCents); }`,
      `  { const a = await ${t}.readOne({ path: { shop_id: 's', thing_id: 't' } }); if (a.ok) seen.push(a.data.id); else if (a.status === 404) seen.push(a.error.type); }`,
      `  { const a = await ${t}.updateFull({ path: { shop_id: 's', thing_id: 't' }, json: { name: 'n', priceCents: 2 } }); if (a.ok) seen.push(a.data.tags); }`,
      `  { const a = await ${t}.delete({ path: { shop_id: 's', thing_id: 't' } }); seen.push(a.status); }`,
      `}`,
    );
  }
  for (let i = 0; i < endpoints; i++) {
    const h = `api.hook${i}`;
    out.push(
      `export async function callHook${i}(seen: unknown[]): Promise<void> {`,
      `  { const a = await ${h}.get(); if (a.ok) seen.push(a.data.event); }`,
      `  { const a = await ${h}.post({ json: { event: 'e', at: 1 } }); if (a.ok) seen.push(a.data.at); else if (a.status === 400) seen.push(a.error.detail); }`,
      `}`,
    );
  }
  out.push(``);
  return out.join('\n');
}

/** Hono: the same routes (valibot validators, sub-apps mounted with `route`), without a client. */
export function honoAppSource(n) {
  const { resources, endpoints } = shape(n);
  const out = [
    `import * as v from 'valibot';`,
    `import { Hono } from 'hono';`,
    `import { vValidator } from '@hono/valibot-validator';`,
  ];
  for (let i = 0; i < resources; i++) {
    out.push(
      `const Thing${i}In = v.object({ name: v.pipe(v.string(), v.minLength(1)), priceCents: v.pipe(v.number(), v.integer()), tags: v.optional(v.array(v.string())) });`,
      `const Thing${i}Page = v.object({ limit: v.optional(v.string()), offset: v.optional(v.string()) });`,
      `const thing${i} = new Hono()`,
      `  .post('/', vValidator('json', Thing${i}In), (c) => c.json({ id: '1', ...c.req.valid('json') }, 201))`,
      `  .get('/', vValidator('query', Thing${i}Page), (c) => c.json([{ id: c.req.valid('query').limit ?? '20', name: 'n', priceCents: 1, tags: [] as string[] }]))`,
      `  .get('/:thing_id', (c) => c.json({ id: c.req.param('thing_id'), name: 'n', priceCents: 1, tags: [] as string[] }))`,
      `  .put('/:thing_id', vValidator('json', Thing${i}In), (c) => c.json({ id: c.req.param('thing_id'), ...c.req.valid('json') }))`,
      `  .delete('/:thing_id', (c) => c.body(null, 204));`,
    );
  }
  for (let i = 0; i < endpoints; i++) {
    out.push(
      `const Hook${i} = v.object({ event: v.string(), at: v.number() });`,
      `const hook${i} = new Hono()`,
      `  .get('/', (c) => c.json({ event: 'e', at: 1 }))`,
      `  .post('/', vValidator('json', Hook${i}), (c) => c.json(c.req.valid('json')));`,
    );
  }
  out.push(`export const app = new Hono()`);
  for (let i = 0; i < resources; i++) out.push(`  .route('/shops/:shop_id/things-${i}', thing${i})`);
  for (let i = 0; i < endpoints; i++) out.push(`  .route('/hooks-${i}', hook${i})`);
  out.push(`;`, `export type AppType = typeof app;`, ``);
  return out.join('\n');
}

/** Hono: the app followed by `hc<AppType>` and a call to every route. */
export function honoClientSource(n) {
  const { resources, endpoints } = shape(n);
  const out = [
    honoAppSource(n),
    `import { hc } from 'hono/client';`,
    `export const client = hc<AppType>('http://localhost');`,
  ];
  for (let i = 0; i < resources; i++) {
    const t = `client.shops[':shop_id']['things-${i}']`;
    out.push(
      `export async function callThing${i}(seen: unknown[]): Promise<void> {`,
      `  { const r = await ${t}.$post({ param: { shop_id: 's' }, json: { name: 'n', priceCents: 1 } }); if (r.ok) seen.push((await r.json()).name); }`,
      `  { const r = await ${t}.$get({ param: { shop_id: 's' }, query: { limit: '10' } }); if (r.ok) seen.push((await r.json())[0]?.priceCents); }`,
      `  { const r = await ${t}[':thing_id'].$get({ param: { shop_id: 's', thing_id: 't' } }); if (r.ok) seen.push((await r.json()).id); }`,
      `  { const r = await ${t}[':thing_id'].$put({ param: { shop_id: 's', thing_id: 't' }, json: { name: 'n', priceCents: 2 } }); if (r.ok) seen.push((await r.json()).tags); }`,
      `  { const r = await ${t}[':thing_id'].$delete({ param: { shop_id: 's', thing_id: 't' } }); seen.push(r.status); }`,
      `}`,
    );
  }
  for (let i = 0; i < endpoints; i++) {
    const h = `client['hooks-${i}']`;
    out.push(
      `export async function callHook${i}(seen: unknown[]): Promise<void> {`,
      `  { const r = await ${h}.$get(); if (r.ok) seen.push((await r.json()).event); }`,
      `  { const r = await ${h}.$post({ json: { event: 'e', at: 1 } }); if (r.ok) seen.push((await r.json()).at); }`,
      `}`,
    );
  }
  out.push(``);
  return out.join('\n');
}
