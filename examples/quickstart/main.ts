import * as v from 'valibot';
import { BaseApp, Created, Location, NotFoundError, Resource, Struct, serve } from '@api/core';

const WidgetIn = Struct('WidgetIn', {
  name: v.pipe(v.string(), v.minLength(1)),
  priceCents: v.pipe(v.number(), v.integer()),
});
const Widget = Struct('Widget', { id: v.string(), ...WidgetIn.entries });
const WidgetPath = Struct('WidgetPath', { widget_id: v.string() });

class WidgetResource extends Resource('/widgets') {
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

class App extends BaseApp {
  protected override async wire() {
    this.includeResource(new WidgetResource());
  }
}

// Port 0 picks a free port; the requests below try the app, then it stops. A long-running server
// is `await serve(new App(), { port: 8000 })`: SIGTERM/SIGINT drain in-flight requests, then stop.
const server = await serve(new App(), { port: 0 });
const post = (body: unknown) =>
  fetch(`${server.url}/widgets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const created = await post({ name: 'bolt', priceCents: 120 });
console.log(created.status, created.headers.get('location')); // → 201 /widgets/1
const found = await fetch(`${server.url}/widgets/1`);
console.log(found.status, await found.json()); // → 200 { id: '1', name: 'bolt', priceCents: 120 }
const invalid = await post({ name: 'bolt', priceCents: 'x' });
console.log(invalid.status, invalid.headers.get('content-type')); // → 422 application/problem+json
const missing = await fetch(`${server.url}/widgets/2`);
console.log(missing.status); // → 404
await server.close();
