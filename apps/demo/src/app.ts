import { BaseApp, ConflictError, defineExceptionHandler, type AppOptions } from '@api/core';
import { DuplicateNameError } from './errors';
import { requestLog, type RequestLogLine } from './extensions/request-log';
import { Factory } from './factory';
import type { User } from './models';
import { SessionEndpoint } from './operations/session';
import { FormRawHeadersEndpoint, HealthEndpoint, RawHealthEndpoint } from './operations/system';
import { FeaturedWidgetEndpoint, WidgetResource } from './operations/widgets';

/** Translates the store's unique-name failure into a 409 `conflict` Problem. */
const duplicateName = defineExceptionHandler({
  exception: DuplicateNameError,
  returns: [ConflictError],
  handleException: () => new ConflictError(),
});

/** The users behind the demo's tokens (in memory). */
export const USERS: ReadonlyMap<string, User> = new Map([
  ['token', { id: 'user-id', name: 'user-name', maySeeSpotlight: true }],
  ['no-spotlight-token', { id: 'other-id', name: 'other-name', maySeeSpotlight: false }],
]);

export interface DemoOptions extends AppOptions<Factory> {
  /** Collects one entry per request (tests read it). */
  readonly requestLog?: RequestLogLine[];
}

/** The reference app: `wire()` reads as the whole topology. */
export class DemoApp extends BaseApp.withFactory(Factory) {
  readonly #requestLog: RequestLogLine[] | undefined;

  constructor(options: DemoOptions = {}) {
    super(options);
    this.#requestLog = options.requestLog;
  }

  protected override async wire(): Promise<void> {
    const store = this.factory.createWidgetStore();

    this.include(requestLog(this.#requestLog ? { sink: this.#requestLog } : {}));
    this.includeExceptionHandler(duplicateName);

    this.includeResource(new WidgetResource(store));
    this.includeEndpoint(new FeaturedWidgetEndpoint());
    this.includeEndpoint(new SessionEndpoint(USERS));
    this.includeEndpoint(new HealthEndpoint());
    this.includeEndpoint(new RawHealthEndpoint());
    this.includeEndpoint(new FormRawHeadersEndpoint());
  }
}
