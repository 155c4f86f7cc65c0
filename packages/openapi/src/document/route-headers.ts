// Headers an extension's answers carry on a route, read from its route fact: any fact value with a
// `responseHeaders` list (e.g. @api/rate-limit's `RateLimit-Policy`, `RateLimit`, `Retry-After`) is
// documented on the operation's responses, without this package knowing the extension.
import type { RouteInfo } from '@api/core/extension';
import type { JsonSchema } from './json-schema';

/** One header of a route fact's `responseHeaders`. */
export interface DocumentedHeader {
  /** The header name, lower case. */
  readonly name: string;
  readonly description: string;
  /** Its JSON Schema (e.g. `{ type: 'string' }`). */
  readonly schema: JsonSchema;
  /** `'all'`, or the statuses whose answers carry it. */
  readonly statuses: 'all' | readonly number[];
}

function isDocumentedHeader(value: unknown): value is DocumentedHeader {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  return (
    typeof h.name === 'string' &&
    typeof h.description === 'string' &&
    typeof h.schema === 'object' &&
    h.schema !== null &&
    (h.statuses === 'all' || (Array.isArray(h.statuses) && h.statuses.every((s) => typeof s === 'number')))
  );
}

/** The headers the route's facts document (each fact's `responseHeaders`, in fact order). */
export function factHeaders(route: RouteInfo): DocumentedHeader[] {
  const out: DocumentedHeader[] = [];
  for (const fact of route.facts.values()) {
    const list = (fact as { responseHeaders?: unknown } | null | undefined)?.responseHeaders;
    if (Array.isArray(list)) for (const header of list) if (isDocumentedHeader(header)) out.push(header);
  }
  return out;
}

/**
 * `response` with the headers that apply to `status` added (a copy when any apply: error
 * responses are shared between operations).
 */
export function withFactHeaders(
  response: Record<string, unknown>,
  status: number,
  headers: readonly DocumentedHeader[],
): Record<string, unknown> {
  const apply = headers.filter((h) => h.statuses === 'all' || h.statuses.includes(status));
  if (apply.length === 0) return response;
  const merged: Record<string, unknown> = { ...((response.headers as Record<string, unknown>) ?? {}) };
  for (const h of apply) merged[h.name] ??= { description: h.description, schema: h.schema };
  // Key order as the other responses: description, headers, content.
  const { description, headers: _given, ...rest } = response;
  return { description, headers: merged, ...rest };
}
