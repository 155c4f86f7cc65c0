// @api with the POST /movies body and answer in zod 4 (Standard Schema: validated by zod, written with
// JSON.stringify), everything else as api.mjs. Compared with api.mjs (valibot, compiled), fastify.mjs
// (JSON schema) and hono-zod.mjs (@hono/standard-validator on the same zod schema).
import * as v from 'valibot';
import {
  AuthenticationRequiredError,
  BaseApp,
  Created,
  defineMiddleware,
  Endpoint,
  named,
  Struct,
  serve,
} from '@api/core';
import { bearerAuth } from '@api/auth';
import { z } from 'zod';

const Info = Struct('Info', { name: v.string(), version: v.string(), uptime: v.number() });
const MovieIn = named(
  'MovieIn',
  z.object({
    title: z.string().min(1).max(200),
    year: z.number().int().min(1888).max(2100),
    rating: z.number().min(0).max(10),
    genres: z.array(z.string()).max(10),
    released: z.boolean(),
  }),
);
const Movie = named('Movie', z.object({ id: z.number().int(), ...MovieIn.shape }));
const ItemPath = Struct('ItemPath', { item_id: v.pipe(v.number(), v.integer()) }); // "42" is coerced by core
const ItemQuery = Struct('ItemQuery', {
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 10),
});
const Item = Struct('Item', { itemId: v.number(), limit: v.number() });
const User = Struct('User', { token: v.string() });

const tokenAuth = bearerAuth({
  headers: Struct('Credentials', { authorization: v.string() }), // missing → 401 before anything else
  user: User,
  authenticate: ({ headers }) => {
    if (headers.authorization !== 'Bearer bench-token') throw new AuthenticationRequiredError();
    return { token: 'bench-token' };
  },
});
const appHeader = defineMiddleware({ responseHeaders: { 'x-app': 'bench' } }); // baked in at wiring

let nextId = 1;
const SIGNAL = {};

class InfoEndpoint extends Endpoint('/info') {
  get = this.operation({ returns: Info, ...SIGNAL }, () => ({
    name: 'bench',
    version: '1.0.0',
    uptime: process.uptime(),
  }));
}

class MoviesEndpoint extends Endpoint('/movies') {
  post = this.operation(
    { json: MovieIn, returns: Created.of(Movie), ...SIGNAL },
    ({ json }) => new Created({ json: { id: nextId++, ...json } }),
  );
}

class ItemEndpoint extends Endpoint('/items/{item_id}') {
  get = this.operation(
    { path: ItemPath, params: ItemQuery, returns: Item, ...SIGNAL },
    ({ path, params }) => ({
      itemId: path.item_id,
      limit: params.limit,
    }),
  );
}

export class App extends BaseApp {
  async wire() {
    this.includeEndpoint(new InfoEndpoint(), { middleware: [appHeader] });
    this.includeEndpoint(new MoviesEndpoint(), { auth: tokenAuth });
    this.includeEndpoint(new ItemEndpoint());
  }
}

const app = new App({ logger: { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) } });
await app.start();
/** The node:http listener, for the in-process micro-benchmark. */
export const listener = app.listener;

if (process.argv[1] === new URL(import.meta.url).pathname) {
  await serve(app, { port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1', quiet: true });
  console.log('ready');
}
