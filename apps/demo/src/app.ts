import { BaseApp, ConflictError, defineExceptionHandler, type AppOptions } from '@api/core';
import { CORS, cors } from '@api/cors';
import { authenticators } from './auth';
import { DuplicateNameError } from './errors';
import { requestLog, type RequestLogLine } from './extensions/request-log';
import { Factory } from './factory';
import type { User } from './models';
import { SessionEndpoint } from './operations/session';
import { MeEndpoint, ProfileEndpoint, SpotlightEndpoint } from './operations/users';
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
  /** The app-default CORS policy (default: from `DEMO_CORS_ORIGINS`, else wildcard). */
  readonly cors?: CORS;
  /** Collects one entry per request (tests read it). */
  readonly requestLog?: RequestLogLine[];
}

/** The reference app: `wire()` reads as the whole topology. */
export class DemoApp extends BaseApp.withFactory(Factory) {
  readonly #requestLog: RequestLogLine[] | undefined;
  readonly #cors: CORS;

  constructor(options: DemoOptions = {}) {
    super(options);
    this.#requestLog = options.requestLog;
    this.#cors = options.cors ?? corsFromEnv(process.env.DEMO_CORS_ORIGINS);
  }

  protected override async wire(): Promise<void> {
    const store = this.factory.createWidgetStore();
    const { tokenAuth, optionalTokenAuth, sessionAuth } = authenticators(USERS);

    this.include(cors(this.#cors));
    this.include(requestLog(this.#requestLog ? { sink: this.#requestLog } : {}));
    this.includeExceptionHandler(duplicateName);

    this.includeResource(new WidgetResource(store), { auth: tokenAuth });
    this.includeEndpoint(new MeEndpoint(), { auth: tokenAuth });
    this.includeEndpoint(new SpotlightEndpoint(), { auth: optionalTokenAuth });
    this.includeEndpoint(new ProfileEndpoint(), { auth: sessionAuth });
    this.includeEndpoint(new FeaturedWidgetEndpoint());
    this.includeEndpoint(new SessionEndpoint(USERS));
    this.includeEndpoint(new HealthEndpoint());
    this.includeEndpoint(new RawHealthEndpoint());
    this.includeEndpoint(new FormRawHeadersEndpoint());
  }
}

const EXPOSED = ['location', 'link', 'x-request-id'];

/** `DEMO_CORS_ORIGINS=https://a.example,https://b.example` → an allow-list with credentials; unset → wildcard. */
export function corsFromEnv(origins: string | undefined): CORS {
  const list =
    origins
      ?.split(',')
      .map((o) => o.trim())
      .filter(Boolean) ?? [];
  return list.length === 0
    ? new CORS({ allowOrigins: '*', exposeHeaders: EXPOSED })
    : new CORS({ allowOrigins: list, allowCredentials: true, exposeHeaders: EXPOSED });
}
