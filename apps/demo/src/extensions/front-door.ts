import { defineExtension, type Extension } from '@api/core/extension';

/** Where `GET /` sends a browser: the page `@api/assets` serves from `public/`. */
export const PAGE = '/assets/index.html';

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

/**
 * The URLs an operator needs once the demo listens, one per line for the startup log. A loopback
 * address is shown as `localhost`: the session cookie is `Secure`, which browsers keep on plain
 * HTTP only for `localhost`.
 *
 * @param url - The listening address, e.g. `http://127.0.0.1:8000`.
 */
export function operatorUrls(url: string, options: { readonly metrics: boolean }): string[] {
  const base = url.replace(/^http:\/\/(127\.0\.0\.1|\[::1\])(?=:)/, 'http://localhost');
  const ws = base.replace(/^http/, 'ws');
  return [
    `the page:            ${base}/`,
    `API docs:            ${base}/docs`,
    `OpenAPI document:    ${base}/openapi.json`,
    `notifications (SSE): ${base}/assets/notifications.html`,
    `health:              ${base}/healthz`,
    `liveness probe:      ${base}/livez`,
    `readiness probe:     ${base}/readyz`,
    `MCP tools:           ${base}/mcp`,
    ...(options.metrics ? [`metrics (Prometheus): ${base}/metrics`] : []),
    `chat (WebSocket):    ${ws}/chat`,
  ];
}
