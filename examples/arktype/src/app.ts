// Widget CRUD over ArkType models, in memory.
import { randomUUID } from 'node:crypto';
import { BaseApp, Created, Location, NotFoundError, Resource, type AppOptions } from '@api/core';
import { openapi } from '@api/openapi';
import { Deleted, Page, Widget, WidgetIn, WidgetPatch, WidgetPath } from './models';

function notFound(): never {
  throw new NotFoundError();
}

export class WidgetResource extends Resource('/widgets', { name: 'WidgetResource' }) {
  readonly #widgets = new Map<string, Widget>();

  create = this.operation(
    { json: WidgetIn, returns: Created.of(Widget), meta: { summary: 'Create a widget.' } },
    ({ json }) => {
      const widget = { id: randomUUID(), ...json };
      this.#widgets.set(widget.id, widget);
      return new Created({
        json: widget,
        location: Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: widget.id } }),
      });
    },
  );

  readMany = this.operation(
    { params: Page, returns: Widget.array(), meta: { summary: 'List widgets, oldest first.' } },
    ({ params }) => {
      const offset = params.offset ?? 0;
      return [...this.#widgets.values()].slice(offset, offset + (params.limit ?? 20));
    },
  );

  readOne = this.operation(
    { path: WidgetPath, returns: Widget, meta: { summary: 'Read one widget.', exceptions: [NotFoundError] } },
    ({ path }) => this.#widgets.get(path.widget_id) ?? notFound(),
  );

  updateFull = this.operation(
    {
      path: WidgetPath,
      json: WidgetIn,
      returns: Widget,
      meta: { summary: 'Replace a widget.', exceptions: [NotFoundError] },
    },
    ({ path, json }) => {
      if (!this.#widgets.has(path.widget_id)) notFound();
      const widget = { id: path.widget_id, ...json };
      this.#widgets.set(widget.id, widget);
      return widget;
    },
  );

  updatePartial = this.operation(
    {
      path: WidgetPath,
      json: WidgetPatch,
      returns: Widget,
      meta: { summary: 'Change some fields of a widget.', exceptions: [NotFoundError] },
    },
    ({ path, json }) => {
      const old = this.#widgets.get(path.widget_id) ?? notFound();
      const widget = { ...old, ...json };
      this.#widgets.set(widget.id, widget);
      return widget;
    },
  );

  delete = this.operation(
    {
      path: WidgetPath,
      returns: Deleted,
      meta: { summary: 'Delete a widget.', exceptions: [NotFoundError] },
    },
    ({ path }) => {
      if (!this.#widgets.delete(path.widget_id)) notFound();
      return { id: path.widget_id, deleted: true as const };
    },
  );
}

export interface ArkTypeAppOptions extends AppOptions {
  /** Serve /openapi.json and /docs (default true). */
  readonly openapi?: boolean;
}

/** The widget API on ArkType models. */
export class ArkTypeApp extends BaseApp {
  readonly #openapi: boolean;

  constructor({ openapi: withDocument = true, ...options }: ArkTypeAppOptions = {}) {
    super(options);
    this.#openapi = withDocument;
  }

  protected override async wire(): Promise<void> {
    this.includeResource(new WidgetResource());
    if (this.#openapi) this.include(openapi({ title: 'ArkType widgets', version: '0.1.0' }));
  }
}
