// `mountFetch(prefix, handler)`: a fetch handler another library provides (Better Auth's
// `auth.handler`, the MCP SDK's Streamable HTTP transport, a tRPC or GraphQL endpoint) mounted
// under a path prefix, on both transports, as a prefix route of the catalogue.
import type { MountOptions } from '../app/app-options';
import { describeValue, wiringError } from '../contract/wiring-error';
import { mergeLimits, MOUNT_LIMIT_KEYS } from '../contract/limits';
import { defineExtension, type Extension } from '../wiring/define-extension';
import { PayloadTooLargeError } from '../errors';
import { sendFetchResponse } from './send-response';
import { toFetchRequest } from './to-request';

/** A WHATWG fetch handler: what Hono's `app.fetch`, Better Auth's `auth.handler` and others are. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Options of `mountFetch`: what the prefix route is, and the mount options every route takes. */
export interface MountFetchOptions extends Omit<MountOptions, 'prefix'> {
  /**
   * The methods the handler answers; another method gets 405 with `allow`. Default: every
   * method (OPTIONS too: a CORS preflight the mount's policy accepts is still answered by core).
   */
  readonly methods?: readonly string[];
  /** Give the handler the path below the prefix (`/api/auth/session` → `/session`). Default false. */
  readonly stripPrefix?: boolean;
  /** The name in the catalogue, wiring errors and the request log. Default `mountFetch(<prefix>)`. */
  readonly name?: string;
}

/**
 * Mounts a WHATWG fetch handler under a path prefix: it answers every path under it (`/api/auth`
 * and `/api/auth/…`) that no route of the app answers, on node:http and on `app.fetch` alike. The
 * request reaches it as a `Request` whose body streams from the client (under the mount's
 * `limits.maxBodyBytes`, default the app's: a declared length over it is a 413 before the
 * handler runs, a read past it fails and the answer is 413) and whose `signal` aborts when the
 * client leaves; its `Response` goes out through core (route headers, compression, framing).
 * App-wide middleware, the request log, spans and request ids apply, and so do the mount options
 * (`cors`, `auth`, `middleware`, `limits`) as on any mount. Two overlapping prefixes fail wiring;
 * an exact or templated route under the prefix always wins over the handler. Not listed in
 * generated documents (the handler's routes are its own).
 *
 * @param prefix - The path prefix, e.g. `/api/auth` (no trailing `/`, no slots).
 * @param handler - The fetch handler.
 * @param options - Methods, prefix stripping, name, and mount options.
 * @example
 * const auth = betterAuth({ basePath: '/api/auth', … });
 * class App extends BaseApp {
 *   protected override async wire() {
 *     this.include(mountFetch('/api/auth', auth.handler));
 *   }
 * }
 */
export function mountFetch(
  prefix: string,
  handler: FetchHandler,
  options: MountFetchOptions = {},
): Extension<void> {
  const where = `mountFetch(${typeof prefix === 'string' ? JSON.stringify(prefix) : describeValue(prefix)})`;
  if (typeof handler !== 'function')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `expected a fetch handler (request) => Response, got ${describeValue(handler)}`,
      "pass the library's handler, e.g. mountFetch('/api/auth', auth.handler)",
    );
  if (typeof options !== 'object' || options === null)
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `options must be an object, got ${describeValue(options)}`,
      'pass { methods, stripPrefix, name, cors, auth, middleware, limits } or nothing',
    );
  const { methods, stripPrefix, name, ...mountOptions } = options;
  if (stripPrefix !== undefined && typeof stripPrefix !== 'boolean')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `stripPrefix must be a boolean, got ${describeValue(stripPrefix)}`,
      'stripPrefix: true, or leave it out',
    );
  if (name !== undefined && (typeof name !== 'string' || name === ''))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `name must be a non-empty string, got ${describeValue(name)}`,
      "name: 'better-auth'",
    );
  const owner = name ?? where;
  return defineExtension({
    name: owner,
    setup(wiring) {
      const limits = mergeLimits(`${owner} limits`, wiring.limits, mountOptions.limits, MOUNT_LIMIT_KEYS);
      const strip = stripPrefix === true ? prefix : undefined;
      wiring.addPrefixRoute({
        prefix,
        owner,
        operation: 'fetch',
        // Documents decide: @api/openapi skips prefix routes unless `prefixRoutes: 'opaque'`.
        ...(methods === undefined ? {} : { methods }),
        mountOptions: mountOptions,
        handle: async (ex) => {
          const built = toFetchRequest(ex, { maxBodyBytes: limits.maxBodyBytes, stripPrefix: strip });
          let response: Response;
          try {
            response = await handler(built.request);
          } catch (error) {
            // The handler failed because its read went past the limit: that is the answer.
            if (built.overLimit())
              throw new PayloadTooLargeError({ limit: 'maxBodyBytes', bytes: limits.maxBodyBytes });
            throw error;
          }
          if (built.overLimit()) {
            await response.body?.cancel().catch(() => undefined);
            throw new PayloadTooLargeError({ limit: 'maxBodyBytes', bytes: limits.maxBodyBytes });
          }
          await sendFetchResponse(ex, response);
        },
      });
    },
  });
}
