// The demo's widget routes (apps/demo/src/operations/widgets.ts) over zod models: same paths,
// operationIds, statuses, headers and bodies. Only the models changed (src/models.ts).
import { z } from 'zod';
import {
  BaseApp,
  ConflictError,
  Created,
  defineExceptionHandler,
  Endpoint,
  JSONResponse,
  Link,
  Location,
  Resource,
  Tag,
  type AppOptions,
} from '@api/core';
import { openapi } from '@api/openapi';
import { tokenAuth } from './auth';
import { WidgetNotFoundError } from './errors';
import {
  CountHeaders,
  Deleted,
  Page,
  Widget,
  WidgetCount,
  WidgetIn,
  WidgetPatch,
  WidgetPath,
} from './models';
import { DuplicateNameError, WidgetStore } from './store';

export const widgetsTag = new Tag('widgets', 'Create, read, and manage widgets.');

/** For OpenAPI: the operations that answer 404 `widget-not-found`. */
const mayBeMissing = [WidgetNotFoundError];

function notFound(widgetId: string): never {
  throw new WidgetNotFoundError({ widgetId });
}

/** The widgets collection: CRUD over the store (the demo's `WidgetResource`, operation for operation). */
export class WidgetResource extends Resource('/widgets', {
  name: 'WidgetResource',
  ref: 'widgets',
  meta: { tags: [widgetsTag] },
}) {
  constructor(private readonly store: WidgetStore) {
    super();
  }

  create = this.operation(
    {
      json: WidgetIn,
      returns: Created.of(Widget),
      meta: { summary: 'Create a widget.', exceptions: [ConflictError] },
    },
    ({ json }) => {
      const widget = this.store.create(json);
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
    { params: Page, returns: z.array(Widget), meta: { summary: 'List widgets, oldest first.' } },
    ({ params }) => this.store.list(params.limit, params.offset),
  );

  readOne = this.operation(
    { path: WidgetPath, returns: Widget, meta: { summary: 'Read one widget.', exceptions: mayBeMissing } },
    ({ path }) => this.store.get(path.widget_id) ?? notFound(path.widget_id),
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
}

/** GET /featured-widget: the first widget created, linked by the widgets resource's `ref`. */
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

/** GET /widget-count (not in the demo): a typed response header from a zod object. */
export class WidgetCountEndpoint extends Endpoint('/widget-count', { meta: { tags: [widgetsTag] } }) {
  constructor(private readonly store: WidgetStore) {
    super();
  }

  get = this.operation(
    {
      returns: JSONResponse.of(WidgetCount, { headers: CountHeaders }),
      meta: { summary: 'How many widgets there are.' },
    },
    () =>
      new JSONResponse({
        json: { count: this.store.count },
        headers: { x_total_count: String(this.store.count) },
      }),
  );
}

/** Translates the store's unique-name failure into a 409 `conflict` Problem. */
const duplicateName = defineExceptionHandler({
  exception: DuplicateNameError,
  returns: [ConflictError],
  handleException: () => new ConflictError(),
});

export interface ZodAppOptions extends AppOptions {
  /** Serve /openapi.json and /docs (default true). */
  readonly openapi?: boolean;
}

/** The widget API on zod models. */
export class ZodApp extends BaseApp {
  readonly #openapi: boolean;

  constructor({ openapi: withDocument = true, ...options }: ZodAppOptions = {}) {
    super(options);
    this.#openapi = withDocument;
  }

  protected override async wire(): Promise<void> {
    const store = new WidgetStore();
    this.includeExceptionHandler(duplicateName);
    this.includeResource(new WidgetResource(store), { auth: tokenAuth });
    this.includeEndpoint(new FeaturedWidgetEndpoint(store));
    this.includeEndpoint(new WidgetCountEndpoint(store));
    if (this.#openapi) this.include(openapi({ title: 'Zod widgets', version: '0.1.0' }));
  }
}
