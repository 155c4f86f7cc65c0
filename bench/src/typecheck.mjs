#!/usr/bin/env node
// Type-check cost of an app: `tsc --extendedDiagnostics` on a generated app with N routes, against
// the packages' TypeScript sources (the `@api/source` condition: no build needed). The app is what
// a real service declares: per resource its own Structs, a path slot, item operations, a JSON body,
// a query, `Created`/`JSONResponse` wrappers; half the mounts bearer-authed with `user` declared;
// endpoints with two verbs; one exception handler with declared results per 50 routes.
//
// Instantiations and types are deterministic (same TypeScript, same sources → same count, on a
// busy machine too): compare those between versions. Times are printed but are load-dependent.
// The app-only cost is the difference between N routes and 0 routes (the 0-route program still
// type-checks the packages' sources).
//
// With --client: the same app plus an @api/client call to every route, beside the same routes as a
// Hono app plus an `hc` call to every route (typecheck-client.mjs); the last line compares what
// each client adds to its server's program:
//   client: routes N api <s> s <inst> inst, hono-hc <s> s <inst> inst, ratio <api/hono seconds>
//
// Usage: pnpm --filter @api/bench typecheck-cost [--routes 1000] [--json] [--no-baseline] [--client]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { argOf, BENCH } from './harness/index.mjs';
import { apiClientSource, honoAppSource, honoClientSource } from './typecheck-client.mjs';

const args = process.argv.slice(2);
const routes = Number(argOf(args, 'routes', '1000'));
const asJson = args.includes('--json');
if (!Number.isInteger(routes) || routes < 10) {
  console.error('--routes must be a whole number ≥ 10');
  process.exit(2);
}
const TSC = createRequire(join(BENCH, 'package.json')).resolve('typescript/lib/tsc.js');

/** The source of an app with about `n` routes: 5 per resource (60%), 2 per endpoint (40%). */
export function generateApp(n) {
  const resources = Math.round((n * 0.6) / 5);
  const endpoints = Math.round((n - resources * 5) / 2);
  const out = [
    `import * as v from 'valibot';`,
    `import { BaseApp, Created, defineExceptionHandler, Endpoint, ExceptionResponse, JSONResponse, NotFoundError, Resource, Struct } from '@api/core';`,
    `import { bearerAuth } from '@api/auth';`,
    ``,
    `const User = Struct('User', { id: v.string(), name: v.string() });`,
    `const Credentials = Struct('Credentials', { authorization: v.string() });`,
    `const auth = bearerAuth({ headers: Credentials, user: User, authenticate: () => ({ id: 'u', name: 'n' }) });`,
    `const Problem = Struct('Problem', { type: v.string(), detail: v.string() });`,
  ];
  for (let i = 0; i < resources; i++) {
    const authed = i % 2 === 0;
    const user = authed ? ' user: User,' : '';
    out.push(
      `const Thing${i}In = Struct('Thing${i}In', { name: v.pipe(v.string(), v.minLength(1)), priceCents: v.pipe(v.number(), v.integer()), tags: v.optional(v.array(v.string())) });`,
      `const Thing${i} = Struct('Thing${i}', { id: v.string(), name: v.string(), priceCents: v.number(), tags: v.optional(v.array(v.string())) });`,
      `const Thing${i}Path = Struct('Thing${i}Path', { shop_id: v.string(), thing_id: v.string() });`,
      `const Thing${i}Page = Struct('Thing${i}Page', { limit: v.optional(v.number(), 20), offset: v.optional(v.number(), 0) });`,
      `class Thing${i}Resource extends Resource('/shops/{shop_id}/things-${i}') {`,
      `  create = this.operation({${user} path: Struct('Shop${i}', { shop_id: v.string() }), json: Thing${i}In, returns: Created.of(Thing${i}) }, ({ json }) => new Created({ json: { id: '1', ...json } }));`,
      `  readMany = this.operation({${user} path: Struct('Shop${i}b', { shop_id: v.string() }), params: Thing${i}Page, returns: v.array(Thing${i}) }, ({ params }) => [{ id: String(params.limit), name: 'n', priceCents: 1 }]);`,
      `  readOne = this.operation({${user} path: Thing${i}Path, returns: [JSONResponse.of(Thing${i})] }, ({ path }) => new JSONResponse({ json: { id: path.thing_id, name: 'n', priceCents: 1 } }));`,
      `  updateFull = this.operation({${user} path: Thing${i}Path, json: Thing${i}In, returns: Thing${i} }, ({ path, json }) => ({ id: path.thing_id, ...json }));`,
      `  delete = this.operation({${user} path: Thing${i}Path }, () => undefined);`,
      `}`,
    );
  }
  for (let i = 0; i < endpoints; i++) {
    const user = i % 2 === 0 ? ' user: User,' : '';
    out.push(
      `const Hook${i} = Struct('Hook${i}', { event: v.string(), at: v.number() });`,
      `class Hook${i}Endpoint extends Endpoint('/hooks-${i}') {`,
      `  get = this.operation({${user} returns: Hook${i} }, () => ({ event: 'e', at: 1 }));`,
      `  post = this.operation({${user} json: Hook${i}, returns: JSONResponse.of(Hook${i}) }, ({ json }) => new JSONResponse({ json }));`,
      `}`,
    );
  }
  const handlers = Math.max(1, Math.round(n / 50));
  for (let i = 0; i < handlers; i++) {
    out.push(
      `class Domain${i}Error extends Error {}`,
      i % 2 === 0
        ? `const domain${i} = defineExceptionHandler({ exception: Domain${i}Error, returns: [ExceptionResponse.of(Problem, { status: 409 })], handleException: (e) => new ExceptionResponse({ statusCode: 409, json: { type: 'x', detail: e.message } }) });`
        : `const domain${i} = defineExceptionHandler({ exception: Domain${i}Error, returns: [NotFoundError], handleException: (e) => (e.message ? new NotFoundError() : undefined) });`,
    );
  }
  out.push(`export class App extends BaseApp {`, `  protected override async wire(): Promise<void> {`);
  for (let i = 0; i < resources; i++)
    out.push(`    this.includeResource(new Thing${i}Resource()${i % 2 === 0 ? ', { auth }' : ''});`);
  for (let i = 0; i < endpoints; i++)
    out.push(`    this.includeEndpoint(new Hook${i}Endpoint()${i % 2 === 0 ? ', { auth }' : ''});`);
  for (let i = 0; i < handlers; i++) out.push(`    this.includeExceptionHandler(domain${i});`);
  out.push(`  }`, `}`, ``);
  return { source: out.join('\n'), routes: resources * 5 + endpoints * 2 };
}

const EMPTY = [
  `import * as v from 'valibot';`,
  `import { BaseApp } from '@api/core';`,
  `import { bearerAuth } from '@api/auth';`,
  `void v; void bearerAuth;`,
  `export class App extends BaseApp { protected override async wire(): Promise<void> {} }`,
  ``,
].join('\n');

const FIELDS = {
  Files: 'files',
  Types: 'types',
  Instantiations: 'instantiations',
  'Memory used': 'memoryKb',
  'Check time': 'checkSeconds',
  'Total time': 'totalSeconds',
  'CPU seconds': 'cpuSeconds',
};

/** Runs tsc on `source` in bench/.work/typecheck-<label>/ and returns its extended diagnostics. */
function measure(label, source) {
  const dir = join(BENCH, '.work', `typecheck-${label}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.ts'), source);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: '../../../tsconfig.base.json', include: ['app.ts'] }, null, 2),
  );
  let text;
  try {
    text = execFileSync(
      process.execPath,
      ['--require', join(BENCH, 'src', 'cpu-exit.cjs'), TSC, '-p', dir, '--extendedDiagnostics'],
      { encoding: 'utf8' },
    );
  } catch (error) {
    console.error(`tsc failed on the ${label} app (${dir}):\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    process.exit(1);
  }
  const result = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z ]+):\s+([\d.]+)/.exec(line);
    if (m && FIELDS[m[1].trim()]) result[FIELDS[m[1].trim()]] = Number(m[2]);
  }
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const app = generateApp(routes);
const empty = args.includes('--no-baseline')
  ? { types: 0, instantiations: 0, checkSeconds: 0 }
  : measure('0', EMPTY);
const full = measure(String(routes), app.source);
const delta = {
  types: full.types - empty.types,
  instantiations: full.instantiations - empty.instantiations,
  checkSeconds: Number((full.checkSeconds - empty.checkSeconds).toFixed(2)),
};
/**
 * What a client adds to its server's program: instantiations, and seconds of tsc CPU time (user +
 * system: wall-clock check times swing by more than the difference on a shared machine).
 */
const added = (withClient, server) => ({
  checkSeconds: Number((withClient.cpuSeconds - server.cpuSeconds).toFixed(2)),
  instantiations: withClient.instantiations - server.instantiations,
  types: withClient.types - server.types,
});
let client;
if (args.includes('--client')) {
  const apiWith = measure(`${routes}-api-client`, apiClientSource(app.source, routes));
  const honoServer = measure(`${routes}-hono`, honoAppSource(routes));
  const honoWith = measure(`${routes}-hono-client`, honoClientSource(routes));
  client = {
    api: { server: full, withClient: apiWith, added: added(apiWith, full) },
    hono: { server: honoServer, withClient: honoWith, added: added(honoWith, honoServer) },
  };
  // "Adds at most 25% to the server's own instantiations": against the app alone (baseline removed).
  client.api.shareOfServer = Number((client.api.added.instantiations / delta.instantiations).toFixed(3));
  client.ratio = Number((client.api.added.checkSeconds / client.hono.added.checkSeconds).toFixed(2));
}
const clientLine = () =>
  `client: routes ${app.routes} api ${client.api.added.checkSeconds} s ${client.api.added.instantiations} inst, ` +
  `hono-hc ${client.hono.added.checkSeconds} s ${client.hono.added.instantiations} inst, ratio ${client.ratio}`;

if (asJson) {
  console.log(
    JSON.stringify({ routes: app.routes, empty, full, app: delta, ...(client ? { client } : {}) }, null, 2),
  );
  if (client) console.log(clientLine());
} else {
  const row = (name, r) =>
    `| ${name} | ${r.types} | ${r.instantiations} | ${r.checkSeconds ?? ''} | ${r.memoryKb ?? ''} |`;
  console.log(
    [
      `tsc --extendedDiagnostics, TypeScript ${createRequire(TSC)('../package.json').version}`,
      '',
      '| program | types | instantiations | check s | memory KB |',
      '|---|---|---|---|---|',
      // (check s: tsc's wall-clock check time; for "adds" rows, the difference in tsc CPU seconds)
      row('0 routes (packages only)', empty),
      row(`${app.routes} routes`, full),
      row(`the ${app.routes}-route app alone`, delta),
      ...(client
        ? [
            row(`@api app + @api/client calls to every route`, client.api.withClient),
            row(`what @api/client adds`, client.api.added),
            row(`Hono app, same routes`, client.hono.server),
            row(`Hono app + hc calls to every route`, client.hono.withClient),
            row(`what hc adds`, client.hono.added),
            '',
            `@api/client adds ${(client.api.shareOfServer * 100).toFixed(1)}% to the app's own instantiations ` +
              `(${client.api.added.instantiations} on ${delta.instantiations}).`,
            clientLine(),
          ]
        : []),
    ].join('\n'),
  );
}
