import { defineExtension, type Extension, type RouteCatalogue, type RouteInfo } from '@api/core/extension';
import { HealthEndpoint } from '../operations/system';

/** Where `GET /` sends a browser: the page `@api/assets` serves from `public/`. */
export const PAGE = '/assets/index.html';
/** The Server-Sent Events page, listed in the startup log when the assets serve it. */
const NOTIFICATIONS_PAGE = '/assets/notifications.html';

/**
 * The demo's front door: `GET /` (and HEAD) answers `302 Found` with `location: /assets/index.html`,
 * so the address the startup log prints opens the page. A redirect, not the page itself: the page's
 * relative links (`app.js`, `style.css`) resolve under `/assets/`. Hidden from the API document.
 */
export function frontDoor(): Extension<void> {
  return defineExtension({
    name: 'front-door',
    setup(wiring) {
      wiring.addRoute({
        method: 'GET',
        path: '/',
        literal: true,
        hidden: true,
        owner: 'front-door',
        operation: 'page',
        handle: (ex) => ex.send(302, ['location', PAGE]),
      });
    },
  });
}

/** One line of the startup log: what to call it, and which mounted route it is. */
interface OperatorUrl {
  readonly label: string;
  readonly route: RouteInfo;
}

/** A route of the catalogue a GET can reach at its path as written (no slots to fill in). */
function reachable(route: RouteInfo): boolean {
  return (route.method === 'GET' || route.method === '*') && !route.path.includes('{');
}

/**
 * The URLs an operator needs once the demo listens, one per line for the startup log, derived from
 * what is mounted (the app's route catalogue): the page, the API docs and document, the
 * notifications page, `/healthz`, the liveness and readiness probes, `/metrics`, an MCP server at
 * `/mcp`, every mounted fetch handler (Better Auth, the MCP SDK transport) and every WebSocket
 * without path slots. What is not mounted is not listed. A loopback address is shown as
 * `localhost`: the session cookie is `Secure`, which browsers keep on plain HTTP only for
 * `localhost`.
 *
 * @param url - The listening address, e.g. `http://127.0.0.1:8000`.
 * @param catalogue - The started app's routes (`app.catalogue`).
 */
export function operatorUrls(url: string, catalogue: RouteCatalogue): string[] {
  const base = url.replace(/^http:\/\/(127\.0\.0\.1|\[::1\])(?=:)/, 'http://localhost');
  const ws = base.replace(/^http/, 'ws');
  const routes = catalogue.routes.filter(reachable);
  const found: OperatorUrl[] = [];
  const add = (label: string, match: (route: RouteInfo) => boolean): void => {
    for (const route of routes)
      if (match(route) && !found.some((f) => f.route.path === route.path)) found.push({ label, route });
  };
  add('the page', (r) => r.path === '/' && r.owner === 'front-door');
  add('API docs', (r) => r.owner === 'openapi' && r.operation === 'docs');
  add('OpenAPI document', (r) => r.owner === 'openapi' && r.operation === 'document');
  add('notifications (SSE)', (r) => r.path === NOTIFICATIONS_PAGE);
  add('health', (r) => r.ownerClass === HealthEndpoint);
  add('liveness probe', (r) => r.owner === 'health' && r.operation === 'liveness');
  add('readiness probe', (r) => r.owner === 'health' && r.operation === 'readiness');
  add('metrics (Prometheus)', (r) => r.owner === 'prometheus');
  add('MCP server', (r) => r.path === '/mcp' || r.path.startsWith('/mcp/'));
  for (const route of routes) if (route.kind === 'prefix') add(`mounted ${route.owner}`, (r) => r === route);
  for (const route of routes)
    if (route.kind === 'upgrade') add(`WebSocket ${route.owner}`, (r) => r === route);
  const width = Math.max(...found.map((f) => f.label.length)) + 2;
  return found.map(
    ({ label, route }) => `${`${label}:`.padEnd(width)}${route.kind === 'upgrade' ? ws : base}${route.path}`,
  );
}
