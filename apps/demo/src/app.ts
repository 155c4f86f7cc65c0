import { BaseApp, ConflictError, defineExceptionHandler, mountFetch, type AppOptions } from '@api/core';
import { assets } from '@api/assets';
import { csrf } from '@api/auth';
import { compress } from '@api/compress';
import { CORS, cors } from '@api/cors';
import { mcp } from '@api/mcp';
import { openapi } from '@api/openapi';
import { otel, taskContext } from '@api/otel';
import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { prometheusRoute } from './metrics';
import { byUser, perOperation, RateLimit, rateLimit } from '@api/rate-limit';
import { secureHeaders } from '@api/secure-headers';
import { backgroundTasks, type BackgroundTasks, type BackgroundTasksOptions } from '@api/tasks';
import { type Channel, websocket } from '@api/ws';
import { authenticators } from './auth';
import { DuplicateNameError } from './errors';
import { frontDoor } from './extensions/front-door';
import { serverTiming } from './extensions/server-timing';
import { Factory } from './factory';
import { ReindexRequested, WidgetEvent, type ChatMessage, type User } from './models';
import { ReindexEndpoint } from './operations/reindex';
import { SessionEndpoint } from './operations/session';
import { ChatSocket, PingSocket } from './operations/sockets';
import { NotificationsEndpoint, QuestionsEndpoint } from './operations/streams';
import { MeEndpoint, ProfileEndpoint, SpotlightEndpoint } from './operations/users';
import { FormRawHeadersEndpoint, HealthEndpoint, RawHealthEndpoint } from './operations/system';
import { FeaturedWidgetEndpoint, WidgetResource } from './operations/widgets';
import { TaskRecorder } from './services/task-recorder';
import { ACCOUNTS_PATH, createAccounts, type Accounts } from './integrations/better-auth';
import { MCP_SDK_PATH, McpSdkSessions } from './integrations/mcp-sdk';
import { AccountEndpoint, AccountNameEndpoint } from './operations/account';
import { UploadEndpoint } from './operations/uploads';

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

/**
 * `apps/demo/public`, resolved from this module: `src/app.ts` under tsx/vitest and the bundled
 * `dist/main.js` both sit one level below the app's root.
 */
export const PUBLIC_DIR = new URL('../public/', import.meta.url);

export interface DemoOptions extends AppOptions<Factory> {
  /** The app-default CORS policy (default: from `DEMO_CORS_ORIGINS`, else wildcard). */
  readonly cors?: CORS;
  /** Origins `/chat` accepts besides the same origin (default: the `DEMO_CORS_ORIGINS` list). */
  readonly chatOrigins?: readonly string[];
  /** Redis for the chat's cross-process fan-out (default: `DEMO_REDIS_URL`; unset → this process only). */
  readonly redisUrl?: string;
  /** Processed background items land here as `<action>:<widgetId>` (tests read it). */
  readonly taskLog?: string[];
  /** Queue options (default `{ drainTimeout: 1 }`); tests pass e.g. `{ maxsize: 2 }` to reach the 503. */
  readonly tasks?: BackgroundTasksOptions;
  /** Simulated work per reindex in ms (default 0; tests raise it to fill the queue). */
  readonly reindexDelayMs?: number;
  /** Pause between the words of a streamed answer in ms (default 20; tests pass 0). */
  readonly answerDelayMs?: number;
  /** The Prometheus reader `GET /metrics` serves (`startMetrics` in `metrics.ts`); none: no route. */
  readonly metrics?: PrometheusExporter | undefined;
  /** `POST /widgets` per user per minute (default 30: reachable by hand). */
  readonly widgetWritesPerMinute?: number;
}

/**
 * The `AppOptions` part of the demo's options (BaseApp refuses keys it does not know, so the
 * demo's own stay here), with the request log on unless a caller turns it off.
 */
function appOptions(options: DemoOptions): AppOptions<Factory> {
  const { logger, requestLog, limits, env, factory, health, loadShedding, trustProxy } = options;
  return {
    requestLog: requestLog ?? true,
    health: health ?? true,
    limits: { deadlineMs: 10_000, ...limits },
    ...(logger && { logger }),
    ...(loadShedding && { loadShedding }),
    ...(trustProxy !== undefined && { trustProxy }),
    ...(env && { env }),
    ...(factory && { factory }),
  };
}

/** The reference app: `wire()` reads as the whole topology. */
export class DemoApp extends BaseApp.withFactory(Factory) {
  readonly #options: DemoOptions;
  readonly #cors: CORS;
  readonly #chatOrigins: readonly string[];
  readonly #redisUrl: string | undefined;
  /** The background handlers; `recorder.events` lists what the queue processed. */
  readonly recorder: TaskRecorder;
  #chat: Channel<typeof ChatMessage> | undefined;
  #tasks: BackgroundTasks | undefined;
  #accounts: Accounts | undefined;
  #mcpSdk: McpSdkSessions | undefined;

  constructor(options: DemoOptions = {}) {
    // The request log is on unless a caller turns it off: one line per request, with its id.
    // Probes at /livez and /readyz; every operation has 10 s to the head of its answer.
    super(appOptions(options));
    // DEMO_CORS_ORIGINS and DEMO_REDIS_URL come from `env` (default process.env), like APP_BASE_URL;
    // DEMO_DB is read by the factory when the store opens.
    const env = options.env ?? process.env;
    this.#options = options;
    this.#cors = options.cors ?? corsFromEnv(env.DEMO_CORS_ORIGINS);
    this.#chatOrigins = options.chatOrigins ?? originsFromEnv(env.DEMO_CORS_ORIGINS);
    this.#redisUrl = options.redisUrl ?? (env.DEMO_REDIS_URL || undefined);
    this.recorder = new TaskRecorder({
      events: options.taskLog,
      reindexDelayMs: options.reindexDelayMs,
      log: this.logger,
    });
  }

  /** The chat channel, once wired (tests read its subscriber counts). */
  get chat(): Channel<typeof ChatMessage> {
    if (!this.#chat) throw new Error('DemoApp: not started');
    return this.#chat;
  }

  /** The background queue, once wired (tests read its stats). */
  get tasks(): BackgroundTasks {
    if (!this.#tasks) throw new Error('DemoApp: not started');
    return this.#tasks;
  }

  /** Better Auth, once wired (tests sign up through it). */
  get accounts(): Accounts {
    if (!this.#accounts) throw new Error('DemoApp: not started');
    return this.#accounts;
  }

  /** The MCP SDK's sessions, once wired (tests read how many are open). */
  get mcpSdk(): McpSdkSessions {
    if (!this.#mcpSdk) throw new Error('DemoApp: not started');
    return this.#mcpSdk;
  }

  protected override async wire(): Promise<void> {
    const log = this.logger;
    // Opened first, closed last: the queue drains (below) before the store closes.
    const store = this.factory.createWidgetStore();
    const chat = (this.#chat = await this.factory.createChatChannel(this.#redisUrl, log));
    // Pages that may send unsafe cookie-session requests from another origin: the ones CORS lets
    // send credentials. Every other cross-origin POST/PUT/PATCH/DELETE with the cookie is a 403.
    const trustedOrigins =
      this.#cors.allowCredentials && Array.isArray(this.#cors.allowOrigins) ? this.#cors.allowOrigins : [];
    const { tokenAuth, optionalTokenAuth, sessionAuth } = authenticators(USERS, trustedOrigins);

    // App-wide: traces (a no-op until main.ts registers an SDK), CORS, compression (br/gzip; streams
    // flushed per item), a Server-Timing header, error translation, the background queue. The
    // request log is core's (`requestLog`).
    this.include(otel());
    if (this.#options.metrics) this.include(prometheusRoute(this.#options.metrics));
    this.include(cors(this.#cors));
    this.include(compress());
    this.include(serverTiming());
    // Security headers on every answer (HSTS, nosniff, referrer-policy, COOP, CORP, x-frame-options);
    // the docs page keeps its own CSP.
    this.include(secureHeaders());
    // Rate limits: on Redis with DEMO_REDIS_URL (one limit for every demo process; while Redis is
    // down, requests are served unlimited), else in this process's memory.
    this.include(
      rateLimit({ store: this.factory.createRateLimitStore(this.#redisUrl), onStoreDown: 'allow' }),
    );
    const perMinute = this.#options.widgetWritesPerMinute ?? 30;
    const widgetWrites = new RateLimit({
      name: 'widget-writes',
      limit: perMinute,
      window: 60,
      key: byUser((user: User) => user.id),
    });
    log.info(
      `rate limits: POST /widgets ${perMinute} per minute per user, ${this.#redisUrl ? `shared through Redis (DEMO_REDIS_URL, fail open)` : "in this process's memory (set DEMO_REDIS_URL to share them between processes)"}`,
    );
    this.includeExceptionHandler(duplicateName);
    // Each background item carries the trace context of the request that enqueued it.
    const tasks = (this.#tasks = this.include(
      backgroundTasks({ ...(this.#options.tasks ?? { drainTimeout: 1 }), propagator: taskContext() }),
    ));
    tasks.register(WidgetEvent, this.recorder.widgetEvent);
    tasks.register(ReindexRequested, this.recorder.reindex);

    // Widgets (bearer).
    this.includeResource(new WidgetResource(store, tasks), {
      auth: tokenAuth,
      rateLimit: perOperation({ create: widgetWrites }),
    });
    this.includeEndpoint(new ReindexEndpoint(tasks), { auth: tokenAuth });
    this.includeEndpoint(new FeaturedWidgetEndpoint(store));

    // Users and sessions.
    this.includeEndpoint(new MeEndpoint(), { auth: tokenAuth });
    this.includeEndpoint(new SpotlightEndpoint(), { auth: optionalTokenAuth });
    // Cookie-session routes: unsafe methods are refused from other origins (@api/auth, on by default).
    this.includeEndpoint(new ProfileEndpoint(), { auth: sessionAuth });
    // Sets the session cookie: never compressed (BREACH: secrets beside reflected input), and
    // refused from other origins (login CSRF: another site must not log a visitor into its account).
    this.includeEndpoint(new SessionEndpoint(USERS), { compress: false, csrf: csrf({ trustedOrigins }) });

    // Streams.
    this.includeEndpoint(new QuestionsEndpoint(this.#options.answerDelayMs ?? 20));
    this.includeEndpoint(new NotificationsEndpoint());

    // WebSockets: bearer ping; cookie chat with an Origin allow-list (same origin plus DEMO_CORS_ORIGINS).
    this.include(websocket(new PingSocket(), { auth: tokenAuth }));
    this.include(websocket(new ChatSocket(chat), { auth: sessionAuth, allowedOrigins: this.#chatOrigins }));

    // Libraries that ship a fetch handler, mounted under a prefix: Better Auth (sign-up and sign-in
    // from the page; @api routes authenticate its session cookie) and the MCP SDK's transport.
    const env = this.#options.env ?? process.env;
    const accounts = (this.#accounts = createAccounts({
      secret: env.BETTER_AUTH_SECRET,
      baseURL: env.APP_BASE_URL,
    }));
    this.include(mountFetch(ACCOUNTS_PATH, accounts.auth.handler, { name: 'better-auth', compress: false }));
    this.includeEndpoint(new AccountEndpoint(), { auth: accounts.accountAuth });
    this.includeEndpoint(new AccountNameEndpoint(accounts), { auth: accounts.accountAuth });
    const mcpSdk = (this.#mcpSdk = await this.aenter(new McpSdkSessions(store)));
    this.include(mountFetch(MCP_SDK_PATH, mcpSdk.handler, { name: 'mcp-sdk' }));
    // The widget operations as MCP tools at /mcp (@api/mcp): the bearer token opens the session,
    // and each tool call runs the operation itself, as the caller (auth, rate limit, 404s, logs).
    this.include(mcp({ path: '/mcp', auth: tokenAuth, tools: [WidgetResource], serverName: 'demo-widgets' }));

    // Large uploads, versioned: the file part streams to disk (at most 256 MiB per request).
    this.includeEndpoint(new UploadEndpoint(), {
      prefix: '/v1',
      limits: { multipart: { maxSpooledBytes: 256 * 1024 * 1024 } },
    });

    // System.
    this.includeEndpoint(new HealthEndpoint());
    this.includeEndpoint(new RawHealthEndpoint());
    this.includeEndpoint(new FormRawHeadersEndpoint());

    // The page, and the API's description.
    this.include(assets({ directory: PUBLIC_DIR, path: '/assets' }));
    this.include(frontDoor());
    this.include(
      openapi({
        title: 'Demo API',
        version: '0.1.0',
        description:
          'The reference app of @api: widgets in SQLite, bearer and cookie auth, streams, WebSockets (not listed: ' +
          '`WS /websocket/{client_id}`, `WS /chat`), a background queue, and a page at [/assets/index.html](/assets/index.html).',
      }),
    );
  }
}

// Readable by scripts on other origins: where a created widget is, and how much of its rate limit is left.
const EXPOSED = ['location', 'link', 'x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after'];

/** `DEMO_CORS_ORIGINS=https://a.example, https://b.example` → `['https://a.example', 'https://b.example']`. */
export function originsFromEnv(origins: string | undefined): string[] {
  return (
    origins
      ?.split(',')
      .map((o) => o.trim())
      .filter(Boolean) ?? []
  );
}

/** `DEMO_CORS_ORIGINS=https://a.example,https://b.example` → an allow-list with credentials; unset → wildcard. */
export function corsFromEnv(origins: string | undefined): CORS {
  const list = originsFromEnv(origins);
  return list.length === 0
    ? new CORS({ allowOrigins: '*', exposeHeaders: EXPOSED })
    : new CORS({ allowOrigins: list, allowCredentials: true, exposeHeaders: EXPOSED });
}
