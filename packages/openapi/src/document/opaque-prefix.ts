// A prefix route (a mounted fetch handler: Better Auth, an MCP transport) as one opaque operation
// per method it serves, for `openapi({ prefixRoutes: 'opaque' })`: the path under the prefix is
// one `{path}` parameter, bodies and answers are `*/*` with no schema (the mounted library's own
// operations are not known here, and a guessed schema would mislead a generated client).
import type { RouteInfo } from '@api/core/extension';

/** What a prefix route answering every method (`*`) is listed with. */
const EVERY_METHOD = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Methods whose request may carry a body a mounted handler reads. */
const WITH_BODY: ReadonlySet<string> = new Set(['post', 'put', 'patch']);

/** An opaque operation, before `security` is added. */
export interface OpaqueOperation extends Record<string, unknown> {
  readonly operationId: string;
}

/** The document path of a prefix: `/api/auth` → `/api/auth/{path}`; `/` → `/{path}`. */
export function opaquePath(prefix: string): string {
  return `${prefix === '/' ? '' : prefix}/{path}`;
}

/**
 * The operations of one prefix route record (one method, or `*` for every method): each with a
 * `path` parameter, a summary, the owner's tag, `*∕*` content and an operationId of the owner and
 * the method (`better_auth_get`).
 *
 * @param route - a prefix route of the catalogue
 * @param tag - the tag to list it under (the owner's name)
 */
export function opaqueOperations(route: RouteInfo, tag: string): [string, OpaqueOperation][] {
  const methods = route.method === '*' ? EVERY_METHOD : [route.method.toLowerCase()];
  const id = route.owner.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'mounted';
  return methods
    .filter((method) => method !== 'head' && method !== 'options')
    .map((method) => {
      const op: OpaqueOperation = {
        operationId: `${id}_${method}`,
        tags: [tag],
        summary: `${method.toUpperCase()} any path under ${route.path} (${route.owner})`,
        description:
          `Every path under \`${route.path}\` is answered by a mounted handler (\`${route.owner}\`); ` +
          'its operations, bodies and answers are its own and are not described here.',
        parameters: [
          {
            name: 'path',
            in: 'path',
            required: true,
            style: 'simple',
            description:
              `The rest of the path after \`${route.path}/\`. It may contain \`/\`: send it unencoded ` +
              '(as `allowReserved` would), not as one percent-encoded segment.',
            schema: { type: 'string' },
          },
        ],
        ...(WITH_BODY.has(method)
          ? { requestBody: { description: 'Whatever the mounted handler reads.', content: { '*/*': {} } } }
          : {}),
        responses: {
          default: { description: "The mounted handler's answer.", content: { '*/*': {} } },
        },
      };
      return [method, op];
    });
}
