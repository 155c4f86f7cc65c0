// The app served through `app.fetch` on fetch-only servers (Bun.serve, Deno.serve, workerd): the
// quickstart's widgets, bearer auth, CORS, compression, static files from a `files` map and the
// suite's stream probes. No WebSockets (no node:http upgrade there) and no directory assets (no file
// system on workerd): those fail wiring on the fetch transport, by design.
import * as v from 'valibot';
import { BaseApp, Created, Endpoint, Location, NotFoundError, Resource, Struct } from '@api/core';
import { assets } from '@api/assets';
import { bearerAuth } from '@api/auth';
import { compress } from '@api/compress';
import { CORS, cors } from '@api/cors';
import { probes } from './probes';

const WidgetIn = Struct('WidgetIn', {
  name: v.pipe(v.string(), v.minLength(1)),
  priceCents: v.pipe(v.number(), v.integer()),
});
const Widget = Struct('Widget', { id: v.string(), ...WidgetIn.entries });
const WidgetPath = Struct('WidgetPath', { widget_id: v.string() });
const User = Struct('User', { name: v.string() });

class WidgetResource extends Resource('/widgets', { name: 'WidgetResource' }) {
  readonly #widgets = new Map<string, v.InferOutput<typeof Widget>>();

  create = this.operation({ json: WidgetIn, returns: Created.of(Widget) }, ({ json }) => {
    const widget = { id: String(this.#widgets.size + 1), ...json };
    this.#widgets.set(widget.id, widget);
    const location = Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: widget.id } });
    return new Created({ json: widget, location });
  });

  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => {
    const widget = this.#widgets.get(path.widget_id);
    if (widget === undefined) throw new NotFoundError();
    return widget;
  });
}

class Me extends Endpoint('/me', { name: 'Me' }) {
  get = this.operation({ user: User, returns: User }, ({ user }) => user);
}

/** Words long enough to be worth compressing. */
class Essay extends Endpoint('/essay', { name: 'Essay' }) {
  get = this.operation({ returns: v.string() }, () => 'all work and no play '.repeat(200));
}

const tokenAuth = bearerAuth({
  headers: Struct('Credentials', { authorization: v.string() }),
  user: User,
  authenticate: ({ headers }) => (headers.authorization === 'Bearer token' ? { name: 'ada' } : null),
});

/** Static files held in memory (what a Worker bundles instead of reading a directory). */
export const STATIC_FILES = {
  'hello.txt': 'hello from memory\n',
  'css/site.css': 'h1 { font: 600 2rem/1.2 system-ui; color: #4f46e5; }\n'.repeat(20),
} as const;

/** The quickstart and stream probes, for fetch-only servers. */
export class FetchApp extends BaseApp {
  protected override async wire(): Promise<void> {
    this.include(cors(new CORS({ allowOrigins: '*' })));
    this.include(compress());
    this.include(assets({ files: STATIC_FILES, path: '/static', cacheControl: 'public, max-age=60' }));
    this.includeResource(new WidgetResource());
    this.includeEndpoint(new Me(), { auth: tokenAuth });
    this.includeEndpoint(new Essay());
    for (const Probe of probes) this.includeEndpoint(new Probe());
  }
}
