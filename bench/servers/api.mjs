// @api, written the way the README teaches: Struct models, Endpoint classes, @api/auth for the bearer token.
import * as v from 'valibot';
import {
  AuthenticationRequiredError,
  BaseApp,
  Created,
  defineMiddleware,
  Endpoint,
  Struct,
  serve,
} from '@api/core';
import { bearerAuth } from '@api/auth';

const Info = Struct('Info', { name: v.string(), version: v.string(), uptime: v.number() });
const MovieIn = Struct('MovieIn', {
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  year: v.pipe(v.number(), v.integer(), v.minValue(1888), v.maxValue(2100)),
  rating: v.pipe(v.number(), v.minValue(0), v.maxValue(10)),
  genres: v.pipe(v.array(v.string()), v.maxLength(10)),
  released: v.boolean(),
});
const Movie = Struct('Movie', { id: v.pipe(v.number(), v.integer()), ...MovieIn.entries });
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
// The `api-signal` variant: every operation binds the request's signal (and ignores it), to
// measure what binding it costs. Read once, at load.
const SIGNAL = process.env.BENCH_SIGNAL === '1' ? { signal: true } : {};

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
