// A small app with the demo's background-queue wiring, for the tests of these pieces (the real
// demo keeps its SQLite store, auth and the rest). What to paste where: INTEGRATION.md.
import * as v from 'valibot';
import { BaseApp, BaseFactory, Created, Location, Resource, Struct, type AppOptions } from '@api/core';
import { backgroundTasks, type BackgroundTasks, type BackgroundTasksOptions } from '@api/tasks';
import { ReindexRequested, WidgetEvent } from './models';
import { queueFullHandler, ReindexEndpoint } from './reindex';
import { TaskRecorder } from './task-recorder';
import { WidgetPath } from './widget-path';

const WidgetIn = Struct('WidgetIn', { name: v.pipe(v.string(), v.minLength(1)), priceCents: v.number() });
const Widget = Struct('Widget', { id: v.string(), ...WidgetIn.entries });
type Widget = v.InferOutput<typeof Widget>;

/** Stands in for the demo's WidgetStore: opened by the factory, closed at shutdown (and says so). */
export class WidgetStore {
  readonly #widgets = new Map<string, Widget>();
  #open = true;
  constructor(private readonly lifecycle: string[]) {
    lifecycle.push('store opened');
  }
  create(input: v.InferOutput<typeof WidgetIn>): Widget {
    if (!this.#open) throw new Error('store is closed');
    const widget = { id: `w${this.#widgets.size + 1}`, ...input };
    this.#widgets.set(widget.id, widget);
    return widget;
  }
  close(): void {
    this.#open = false;
    this.lifecycle.push('store closed');
  }
}

export class Factory extends BaseFactory {
  /** Where lifecycle lines go (tests read the order). */
  lifecycle: string[] = [];
  createWidgetStore(): WidgetStore {
    return this.enter(new WidgetStore(this.lifecycle));
  }
}

/** The demo's WidgetResource.create, changed to enqueue a `WidgetEvent` after storing the widget. */
export class WidgetResource extends Resource('/widgets', { ref: 'widgets' }) {
  constructor(
    private readonly store: WidgetStore,
    private readonly tasks: BackgroundTasks,
  ) {
    super();
  }

  create = this.operation({ json: WidgetIn, returns: Created.of(Widget) }, async ({ json }) => {
    const widget = this.store.create(json);
    // Resolves at once while the queue has room; the handler runs after this response is sent.
    await this.tasks.add(WidgetEvent, { action: 'created', widgetId: widget.id });
    return new Created({
      json: widget,
      location: Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id: widget.id } }),
    });
  });

  readOne = this.operation({ path: WidgetPath, returns: Widget }, ({ path }) => ({
    id: path.widget_id,
    name: '?',
    priceCents: 0,
  }));
}

export interface TasksDemoOptions extends AppOptions<Factory> {
  /** Lifecycle lines of the factory's resources (tests read the order). */
  readonly lifecycle?: string[];
  /** Processed background items land here as `<action>:<widgetId>` (tests read it). */
  readonly taskLog?: string[];
  /** Queue options (the demo uses `{ drainTimeout: 1 }`). */
  readonly tasks?: BackgroundTasksOptions;
  /** Simulated work per reindex, ms (tests raise it to fill the queue). */
  readonly reindexDelayMs?: number;
}

export class TasksDemoApp extends BaseApp.withFactory(Factory) {
  readonly recorder: TaskRecorder;
  /** The queue, once wired (tests use it). */
  tasks: BackgroundTasks | undefined;
  readonly #queueOptions: BackgroundTasksOptions;

  constructor(options: TasksDemoOptions = {}) {
    super(options);
    if (options.lifecycle) this.factory.lifecycle = options.lifecycle;
    this.recorder = new TaskRecorder({
      ...(options.taskLog ? { events: options.taskLog } : {}),
      ...(options.reindexDelayMs === undefined ? {} : { reindexDelayMs: options.reindexDelayMs }),
    });
    this.#queueOptions = options.tasks ?? { drainTimeout: 1 };
  }

  protected override async wire(): Promise<void> {
    const store = this.factory.createWidgetStore(); // opened first …
    const tasks = this.include(backgroundTasks(this.#queueOptions)); // … so the queue drains before it closes
    this.tasks = tasks;
    tasks.register(WidgetEvent, this.recorder.widgetEvent);
    tasks.register(ReindexRequested, this.recorder.reindex);
    this.includeExceptionHandler(queueFullHandler);
    this.includeResource(new WidgetResource(store, tasks));
    this.includeEndpoint(new ReindexEndpoint(tasks));
  }
}
