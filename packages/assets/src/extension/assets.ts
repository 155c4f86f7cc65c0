import {
  defineExtension,
  wiringError,
  type Extension,
  type RouteInfo,
  type Wiring,
} from '@api/core/extension';
import { resolveOptions, type AssetsOptions } from '../options/options';
import { buildTable } from '../table/build-table';
import { rawPath, routePath } from '../table/url-path';
import { AssetRoute } from './asset-route';

/** Who claimed a route path in one app: the file and the `include(assets(…))` that serves it. */
interface Claim {
  readonly file: string;
  readonly where: string;
}

/** Asset routes per app, keyed `GET <path>`; one route contributor per app checks collisions. */
const claimsByApp = new WeakMap<Wiring, Map<string, Claim>>();

/**
 * Serves the files of a directory (or of a `files` map) from memory, one exact `GET` route per file
 * (`HEAD` included), under `path` (default `/assets`). The directory is read once, at wiring: every matching file's
 * bytes, content type, strong `ETag` and — for text-like files — a gzip copy (and, with
 * `brotli: true`, a brotli copy) are kept in memory; no request touches the filesystem.
 *
 * Requests negotiate `Accept-Encoding`, answer a matching `If-None-Match` with 304, and send
 * `cacheControl` verbatim. Asset routes are ordinary routes of the app: app-wide middleware and
 * the app-default CORS policy cover them; they never appear in the OpenAPI document. Wiring fails
 * with a `WiringError` for a missing directory, an unsupported suffix, an unreadable file, no
 * matching files, too many files, a route that is already registered, or more bytes than
 * `maxTotalBytes`.
 *
 * @param options the directory and how to serve it
 * @returns an extension for `this.include(…)` inside `wire()`
 *
 * @example
 * class App extends BaseApp {
 *   protected override async wire() {
 *     this.include(assets({ directory: new URL('./public', import.meta.url), cacheControl: 'public, max-age=300' }));
 *   }
 * }
 */
export function assets(options: AssetsOptions): Extension<void> {
  const label =
    typeof options?.directory === 'string'
      ? JSON.stringify(options.directory)
      : options?.directory instanceof URL
        ? `new URL(${JSON.stringify(options.directory.href)})`
        : '…';
  const call =
    options?.files !== undefined && options.directory === undefined
      ? `assets({ files: {…} })`
      : `assets({ directory: ${label} })`;
  const resolved = resolveOptions(options, call);
  return defineExtension({
    name: 'assets',
    setup(wiring) {
      const where = `${wiring.appName}.include(${call})`;
      if (wiring.transport === 'fetch' && resolved.source.kind === 'directory')
        throw wiringError(
          'API_WIRING_APP_STATE',
          where,
          "assets are read from a directory at wiring, which needs Node's file system, and the app is started for the fetch transport (app.fetch, or start({ transport: 'fetch' })), where there may be none",
          "pass the files in memory (assets({ files: { 'index.html': html } }), e.g. imported by your bundler), use the platform's static assets (a Workers assets binding), or serve the app with serve() (Node, Bun, Deno) where the directory can be read",
        );
      const table = buildTable(resolved, where);
      const claims = claimsFor(wiring);
      const routes: AssetRoute[] = [];
      for (const file of table.files) {
        // Where browsers ask for it (percent-encoded), and — when that differs — where clients
        // that do not encode ask (`{locale}/a.css` as written). Both are literal routes.
        const encoded = routePath(resolved.prefix, file.relative);
        const raw = rawPath(resolved.prefix, file.relative);
        for (const path of raw === encoded ? [encoded] : [encoded, raw]) {
          const key = claimKey(path);
          // A route wired before this call (an endpoint, another extension): say so in our terms.
          const taken = wiring.findRoute('GET', path, { literal: true });
          if (taken !== undefined && !isAsset(taken)) {
            throw wiringError(
              'API_WIRING_DUPLICATE_ROUTE',
              where,
              `"${file.relative}" would be served at GET ${path}, which is already registered by ${describe(taken)}`,
              `exclude "${file.relative}" (exclude: [${JSON.stringify(file.relative)}]), serve the assets under another path, or move the other route`,
            );
          }
          const prior = claims.get(key);
          if (prior !== undefined) {
            throw wiringError(
              'API_WIRING_DUPLICATE_ROUTE',
              where,
              `"${file.relative}" would be served at GET ${path}, which is already registered by "${prior.file}" of ${prior.where}`,
              'give the two assets() calls different paths, or exclude the file from one of them',
            );
          }
          claims.set(key, { file: file.relative, where });
          routes.push(new AssetRoute(path, file, resolved.cacheControl));
        }
      }
      for (const route of routes) wiring.addRoute(route);
      const skipped = table.skipped.symlinks.length + table.skipped.special.length;
      if (skipped > 0) {
        const names = [...table.skipped.symlinks, ...table.skipped.special].slice(0, 5).join(', ');
        wiring.log.info(
          `${where}: not served (symlinks and special files never are): ${names}${skipped > 5 ? ` and ${skipped - 5} more` : ''}`,
        );
      }
    },
  });
}

/**
 * The app's claims, installing (once per app) the contributor that turns a clash between an asset
 * and any other route into a WiringError naming the file. Core's router would also refuse the
 * clash, but without the file name; the contributor sees every route in registration order before
 * the router adds it, so it fires first whichever side was registered first.
 */
function claimsFor(wiring: Wiring): Map<string, Claim> {
  let claims = claimsByApp.get(wiring);
  if (claims !== undefined) return claims;
  const owned = new Map<string, Claim>();
  claims = owned;
  claimsByApp.set(wiring, owned);
  const seen = new Map<string, RouteInfo>();
  wiring.addContributor((route) => {
    const key = claimKey(route.path, route.method, route.literal === true);
    const prior = seen.get(key);
    if (prior === undefined) {
      seen.set(key, route);
      return undefined;
    }
    const claim = owned.get(key);
    if (claim === undefined) return undefined; // not ours: core's router reports it
    const other = isAsset(prior) ? route : prior;
    throw wiringError(
      'API_WIRING_DUPLICATE_ROUTE',
      claim.where,
      `"${claim.file}" would be served at ${route.method} ${route.path}, which is already registered by ${describe(other)}`,
      `exclude "${claim.file}" (exclude: [${JSON.stringify(claim.file)}]), serve the assets under another path, or move the other route`,
    );
  });
  return owned;
}

/**
 * The key of a route path in the claims: the method and path, marked when the path is literal and
 * has braces — `/a/{x}` as a literal path and as a template are different routes (the literal one
 * wins for its exact path only, like any exact path beside a template).
 */
function claimKey(path: string, method = 'GET', literal = true): string {
  return literal && /[{}]/.test(path) ? `${method} literal ${path}` : `${method} ${path}`;
}

const isAsset = (route: RouteInfo): boolean => route.kind === 'custom' && route.owner === 'assets';
const describe = (route: RouteInfo): string =>
  `${route.owner}.${route.operation}${route.kind === 'custom' ? ` (${route.kind} route)` : ''}`;
