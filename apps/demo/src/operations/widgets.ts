import * as v from 'valibot';
import { ConflictError, Created, Endpoint, JSONResponse, Link, Location, Resource, Tag } from '@api/core';
import type { BackgroundTasks } from '@api/tasks';
import { WidgetNotFoundError } from '../errors';
import { Deleted, Page, Widget, WidgetEvent, WidgetIn, WidgetPatch, WidgetPath } from '../models';
import type { WidgetStore } from '../services/widget-store';

export const widgetsTag = new Tag('widgets', 'Create, read, and manage widgets.');

/** For OpenAPI: the operations that answer 404 `widget-not-found`. */
const mayBeMissing = [WidgetNotFoundError];

/**
 * The widgets collection: CRUD over the SQLite store. `ConflictError` (returned by the
 * duplicate-name exception handler) is declared on `create`, because the route catalogue cannot
 * see what an exception handler returns; the bearer authenticator's errors come from its `raises`.
 * `name`: the class refers to itself (`Location.fromOperation(WidgetResource, …)`), which is what
 * makes a bundler rename it (`_WidgetResource`); the name keeps the operationIds `WidgetResource_*`
 * in any build.
 */
export class WidgetResource extends Resource('/widgets', {
  name: 'WidgetResource',
  ref: 'widgets',
  meta: { tags: [widgetsTag] },
}) {
  constructor(
    private readonly store: WidgetStore,
    private readonly tasks: BackgroundTasks,
  ) {
    super();
  }

  create = this.operation(
    {
      json: WidgetIn,
      returns: Created.of(Widget),
      meta: { summary: 'Create a widget.', exceptions: [ConflictError] },
    },
    async ({ json }) => {
      const widget = this.store.create(json);
      // Resolves at once while the queue has room; the event is handled after this response is sent.
      await this.tasks.add(WidgetEvent, { action: 'created', widgetId: widget.id });
      return new Created({
        json: widget,
        location: Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: widget.id } }),
        links: [
          Link.fromOperation(WidgetResource, 'readOne', { rel: 'self', path: { widget_id: widget.id } }),
          Link.fromRef('widgets.readMany', { rel: 'collection' }),
        ],
      });
    },
  );

  readMany = this.operation(
    { params: Page, returns: v.array(Widget), meta: { summary: 'List widgets, oldest first.' } },
    ({ params }) => this.store.list(params.limit, params.offset),
  );

  readOne = this.operation(
    { path: WidgetPath, returns: Widget, meta: { summary: 'Read one widget.', exceptions: mayBeMissing } },
    ({ path }) => this.#get(path.widget_id),
  );

  updateFull = this.operation(
    {
      path: WidgetPath,
      json: WidgetIn,
      returns: Widget,
      meta: { summary: 'Replace a widget.', exceptions: [...mayBeMissing, ConflictError] },
    },
    ({ path, json }) => this.store.replace(path.widget_id, json) ?? notFound(path.widget_id),
  );

  updatePartial = this.operation(
    {
      path: WidgetPath,
      json: WidgetPatch,
      returns: Widget,
      meta: { summary: 'Change some fields of a widget.', exceptions: [...mayBeMissing, ConflictError] },
    },
    ({ path, json }) => this.store.update(path.widget_id, json) ?? notFound(path.widget_id),
  );

  delete = this.operation(
    { path: WidgetPath, returns: Deleted, meta: { summary: 'Delete a widget.', exceptions: mayBeMissing } },
    ({ path }) => {
      if (!this.store.delete(path.widget_id)) notFound(path.widget_id);
      return { id: path.widget_id, deleted: true as const };
    },
  );

  #get(id: string): v.InferOutput<typeof Widget> {
    return this.store.get(id) ?? notFound(id);
  }
}

function notFound(widgetId: string): never {
  throw new WidgetNotFoundError({ widgetId });
}

/**
 * GET /featured-widget: the first widget created, with a Link to it built from the widgets
 * resource's `ref` (so the link leads to a widget that exists); 404 `widget-not-found` while
 * there is none.
 */
export class FeaturedWidgetEndpoint extends Endpoint('/featured-widget', { meta: { tags: [widgetsTag] } }) {
  constructor(private readonly store: WidgetStore) {
    super();
  }

  get = this.operation(
    {
      returns: JSONResponse.of(Widget),
      meta: { summary: 'The featured widget (the first created).', exceptions: mayBeMissing },
    },
    () => {
      const widget = this.store.list(1, 0)[0] ?? notFound('featured');
      return new JSONResponse({
        json: widget,
        links: Link.fromRef('widgets.readOne', { rel: 'related', path: { widget_id: widget.id } }),
      });
    },
  );
}
