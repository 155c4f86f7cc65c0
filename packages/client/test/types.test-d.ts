// Type tests: what a call accepts and what it resolves to, from the route classes alone.
import { describe, expectTypeOf, it } from 'vitest';
import { createClient, route, type Authenticated, type ClientSocket, type SSEEvent } from '../src/index';
import type { ErrorReason, Problem } from '../src/index';
import type { AppErrors } from './fixture/app';
import type { VaultResource, WidgetResource } from './fixture/routes';
import { routes } from './fixture/client-routes';

const api = createClient({
  baseUrl: '',
  routes: { ...routes, open: route<WidgetResource>('/widgets') },
});

type Widget = { id: string; name: string; priceCents: number };

describe('route()', () => {
  it('takes exactly the path the class declares', () => {
    // @ts-expect-error -- not the path of WidgetResource
    route<WidgetResource>('/widget');
    // @ts-expect-error -- a text WebSocket endpoint must say so
    route<ShoutSocket>('/shout');
    // @ts-expect-error -- a JSON endpoint takes no options
    route<RoomSocket>('/rooms/{room}', { text: true });
  });
});

describe('the operations of a mount', () => {
  it('are the declared ones, and only them', () => {
    expectTypeOf(api.widgets).toHaveProperty('create');
    expectTypeOf(api.widgets).toHaveProperty('readOne');
    // @ts-expect-error -- WidgetResource declares no updateFull
    void api.widgets.updateFull;
    // @ts-expect-error -- no such mount
    void api.gadgets;
    expectTypeOf(api.misc).toHaveProperty('get');
    // @ts-expect-error -- MiscEndpoint declares no patch
    void api.misc.patch;
  });
});

describe('call input', () => {
  it('types path, query, headers, cookies and bodies from the schemas (their input side)', () => {
    expectTypeOf(api.widgets.readOne)
      .parameter(0)
      .toHaveProperty('path')
      .toEqualTypeOf<{ widget_id: string }>();
    expectTypeOf(api.widgets.create)
      .parameter(0)
      .toHaveProperty('json')
      .toEqualTypeOf<{ name: string; priceCents: number }>();
    expectTypeOf(api.widgets.readMany)
      .parameter(0)
      .exclude<undefined>()
      .toHaveProperty('params')
      .toEqualTypeOf<{ limit?: number | undefined; tag?: string[] | undefined } | undefined>();
    expectTypeOf(api.echo.get)
      .parameter(0)
      .toHaveProperty('headers')
      .toEqualTypeOf<{ xTraceId: string; x_mode: 'fast' | 'slow' }>();
    expectTypeOf(api.echo.get)
      .parameter(0)
      .toHaveProperty('cookies')
      .toEqualTypeOf<{ session?: string | undefined } | undefined>();
    expectTypeOf(api.shopWidgets.readOne)
      .parameter(0)
      .toHaveProperty('path')
      .toEqualTypeOf<{ shop_id: string; widget_id: string }>();
  });

  it('takes a multipart form as an object with Blobs for files, or a FormData', () => {
    type Form = Exclude<Parameters<typeof api.uploads.post>[0]['form'], FormData | URLSearchParams>;
    expectTypeOf<Form['avatar']>().toEqualTypeOf<Blob>();
    expectTypeOf<Form['extras']>().toEqualTypeOf<readonly Blob[] | undefined>();
    expectTypeOf<Form['meta']>().toEqualTypeOf<{ title: string }>();
    expectTypeOf<Form['count']>().toEqualTypeOf<number>();
    void api.uploads.post({ form: new FormData() });
  });

  it('makes the argument optional exactly when nothing in it is required', () => {
    void api.widgets.readMany();
    void api.misc.get();
    // @ts-expect-error -- readOne needs its path
    void api.widgets.readOne();
    // @ts-expect-error -- echo needs its declared headers
    void api.echo.get({});
  });

  it('refuses calling mistakes', () => {
    // @ts-expect-error -- the path slot is missing
    void api.widgets.readOne({ path: {} });
    // @ts-expect-error -- a wrong body field
    void api.widgets.create({ json: { nam: 'x', priceCents: 1 } });
    // @ts-expect-error -- a wrong field type
    void api.widgets.create({ json: { name: 'x', priceCents: '1' } });
    // @ts-expect-error -- a value outside the header's picklist
    void api.echo.get({ headers: { xTraceId: 't', x_mode: 'medium' } });
    // @ts-expect-error -- a source the operation does not declare
    void api.misc.get({ json: {} });
    // @ts-expect-error -- an upload's file is a Blob
    void api.uploads.post({ form: { note: '', count: 1, meta: { title: '' }, avatar: 'me.png' } });
  });
});

describe('answers', () => {
  it('narrow on ok and status to the declared bodies', async () => {
    const answer = await api.widgets.readOne({ path: { widget_id: '1' } });
    if (answer.ok) {
      expectTypeOf(answer.status).toEqualTypeOf<200>();
      expectTypeOf(answer.data).toEqualTypeOf<Widget>();
    } else if (answer.status === 404) {
      // The declared WidgetNotFoundError, or core's 404 for a path that fails conversion.
      expectTypeOf(answer.error.type).toEqualTypeOf<'widget-not-found' | 'not-found'>();
      if (answer.error.type === 'widget-not-found')
        expectTypeOf(answer.error.params).toEqualTypeOf<{ widgetId: string }>();
    } else if (answer.status === 401) {
      expectTypeOf(answer.error.type).toEqualTypeOf<'authentication-required' | 'invalid-token'>();
    } else if (answer.status === 500) {
      expectTypeOf(answer.error).toEqualTypeOf<Problem<500, 'internal-server-error'>>();
    } else {
      // Anything else (a proxy's 502, a 429): the body as sent.
      expectTypeOf(answer.error).toBeUnknown();
      expectTypeOf(answer.status).toExtend<number>();
    }
  });

  it('carry the derived 400 and 422 Problems with their reasons', async () => {
    const answer = await api.widgets.create({ json: { name: 'x', priceCents: 1 } });
    if (answer.status === 422) {
      expectTypeOf(answer.error.type).toEqualTypeOf<'validation-failed'>();
      expectTypeOf(answer.error.params.reason).toEqualTypeOf<string>();
      expectTypeOf(answer.error.params.issues[0]!.path).toEqualTypeOf<string>();
      expectTypeOf(answer.error.params).toExtend<ErrorReason>();
    }
    if (answer.status === 409) expectTypeOf(answer.error.type).toEqualTypeOf<'duplicate'>();
    if (answer.ok) {
      expectTypeOf(answer.status).toEqualTypeOf<201>();
      expectTypeOf(answer.headers.xWidgetCount).toEqualTypeOf<string>();
      expectTypeOf(answer.headers.location).toEqualTypeOf<string | undefined>();
    }
  });

  it('type a 401 as undeclared on a mount without auth', async () => {
    const answer = await api.open.readMany();
    if (answer.status === 401) expectTypeOf(answer.error).toBeUnknown();
    const authed = await api.widgets.readMany();
    if (authed.status === 401) expectTypeOf(authed.error).not.toBeUnknown();
  });

  it('type a StructHTTPError body, typed response headers and NoContent', async () => {
    const teapot = await api.misc.delete();
    if (teapot.status === 418) expectTypeOf(teapot.error).toEqualTypeOf<{ code: string; message: string }>();
    if (teapot.ok) expectTypeOf(teapot.status).toEqualTypeOf<204>();
    const echo = await api.echo.get({ headers: { xTraceId: 't', x_mode: 'fast' } });
    if (echo.ok) {
      expectTypeOf(echo.headers.x_mode).toEqualTypeOf<'fast' | 'slow'>();
      expectTypeOf(echo.headers.xTraceId).toEqualTypeOf<string>();
    }
    const none = await api.misc.put();
    if (none.ok) expectTypeOf(none.data).toEqualTypeOf<undefined>();
  });

  it('give orThrow() the success data', async () => {
    expectTypeOf(await api.widgets.readOne({ path: { widget_id: '1' } }).orThrow()).toEqualTypeOf<Widget>();
    expectTypeOf(await api.widgets.readMany().orThrow()).toEqualTypeOf<Widget[]>();
    expectTypeOf(await api.misc.get().orThrow()).toEqualTypeOf<string>();
  });
});

describe('streams', () => {
  it('type NDJSON items, SSE events and byte streams', async () => {
    expectTypeOf(await api.ask.post({ json: { text: 'q' } }).orThrow()).toEqualTypeOf<
      AsyncIterable<{ text: string }>
    >();
    expectTypeOf(await api.notices.get().orThrow()).toEqualTypeOf<
      AsyncIterable<SSEEvent<{ message: string }>>
    >();
    expectTypeOf(await api.misc.post().orThrow()).toEqualTypeOf<ReadableStream<Uint8Array>>();
  });
});

describe('WebSockets', () => {
  it('type send and receive per direction', async () => {
    const room = await api.rooms.connect({ path: { room: 'lobby' } });
    expectTypeOf(room).toEqualTypeOf<
      ClientSocket<{ type: 'say'; text: string }, { type: 'said'; text: string; room: string; user: string }>
    >();
    // @ts-expect-error -- the server accepts `say` messages only
    room.send({ type: 'shout', text: 'x' });
    const shout = await api.shout.connect();
    expectTypeOf(shout).toEqualTypeOf<ClientSocket<string, string>>();
    // @ts-expect-error -- the room is a path slot
    void api.rooms.connect();
  });
});

describe('url-encoded forms', () => {
  it('take a fields object (multipart, or url-encoded with formEncoding) or a URLSearchParams', () => {
    void api.signup.post({ form: { name: 'Ada', age: 36, tags: ['a'] }, formEncoding: 'urlencoded' });
    void api.signup.post({ form: new URLSearchParams({ name: 'Ada', age: '36' }) });
    void api.signup.post({ form: { name: 'Ada', age: 36 } });
    // @ts-expect-error -- a form has two encodings
    void api.signup.post({ form: { name: 'Ada', age: 36 }, formEncoding: 'json' });
    // @ts-expect-error -- age is a number field
    void api.signup.post({ form: { name: 'Ada', age: 'old' }, formEncoding: 'urlencoded' });
    // @ts-expect-error -- a wrong field name
    void api.signup.post({ form: { nam: 'Ada', age: 1 }, formEncoding: 'urlencoded' });
  });
});

describe('errors declared outside the operation', () => {
  it('include the class-level exceptions of a route class', async () => {
    const answer = await api.vault.readMany();
    if (answer.status === 423) expectTypeOf(answer.error).toEqualTypeOf<Problem<423, 'locked'>>();
    // Without the app's errors, a handler's 409 is any other status.
    if (answer.status === 409) expectTypeOf(answer.error).toBeUnknown();
  });

  it("include the app's exception handlers' pinned answers when the client names them", async () => {
    const routes = { vault: route<VaultResource>('/vault') };
    const typed = createClient<typeof routes, AppErrors>({ baseUrl: '', routes });
    const answer = await typed.vault.readMany({ params: { fail: 'quota' } });
    if (answer.status === 409) expectTypeOf(answer.error).toEqualTypeOf<{ quota: string; limit: number }>();
    if (answer.status === 503) expectTypeOf(answer.error).toEqualTypeOf<Problem<503, 'unavailable'>>();
    if (answer.status === 423) expectTypeOf(answer.error.type).toEqualTypeOf<'locked'>();
    if (answer.status === 502) expectTypeOf(answer.error).toBeUnknown();
    if (answer.ok) expectTypeOf(answer.data).toEqualTypeOf<string[]>();
  });
});

describe('zod and ArkType routes (Standard Schema)', () => {
  it('take the schemas input types and resolve to their output types', async () => {
    const { z } = await import('zod');
    const { type } = await import('arktype');
    const { Endpoint, Resource } = await import('@api/core');
    const Movie = z.object({ id: z.string(), year: z.number().int(), rating: z.number().default(0) });
    class Movies extends Resource('/movies') {
      create = this.operation(
        { json: z.object({ title: z.string(), year: z.coerce.number() }), returns: Movie },
        () => ({ id: '1', year: 1 }),
      );
      readOne = this.operation(
        {
          path: type({ movie_id: 'string' }),
          params: type({ 'full?': 'boolean' }),
          returns: type({ id: 'string' }),
        },
        () => ({ id: '1' }),
      );
    }
    class Ping extends Endpoint('/ping') {
      get = this.operation(
        { headers: z.object({ x_trace_id: z.string() }), returns: z.string() },
        () => 'pong',
      );
    }
    const zapi = createClient({
      baseUrl: '',
      routes: { movies: route<Movies>('/movies'), ping: route<Ping>('/ping') },
    });
    expectTypeOf(zapi.movies.create)
      .parameter(0)
      .toHaveProperty('json')
      .toEqualTypeOf<{ title: string; year: unknown }>();
    expectTypeOf(zapi.movies.readOne)
      .parameter(0)
      .toHaveProperty('path')
      .toEqualTypeOf<{ movie_id: string }>();
    expectTypeOf(zapi.ping.get)
      .parameter(0)
      .toHaveProperty('headers')
      .toEqualTypeOf<{ x_trace_id: string }>();
    const created = await zapi.movies.create({ json: { title: 't', year: 1 } });
    if (created.ok) expectTypeOf(created.data).toEqualTypeOf<{ id: string; year: number; rating: number }>();
    const one = await zapi.movies.readOne({ path: { movie_id: '1' } });
    if (one.ok) expectTypeOf(one.data).toEqualTypeOf<{ id: string }>();
    const pong = await zapi.ping.get({ headers: { x_trace_id: 't' } });
    if (pong.ok) expectTypeOf(pong.data).toEqualTypeOf<string>();
    // @ts-expect-error -- the path is required
    void zapi.movies.readOne({});
  });
});
