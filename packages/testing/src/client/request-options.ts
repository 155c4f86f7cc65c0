import type { FormFields, FormFiles, HeaderInit } from '../multipart/build-multipart';

/** One query-string value; booleans are sent as `true` / `false`. */
export type QueryValue = string | number | boolean;

/** Query parameters: a value, or a list of values sent as repeated keys. */
export type QueryParams = Readonly<Record<string, QueryValue | readonly QueryValue[]>>;

/** Options every request takes. */
export interface RequestOptions {
  /** Appended to the path as a query string (after any query already in the path). */
  readonly params?: QueryParams;
  /** Request headers: a record, or `[name, value]` pairs (repeats kept, names sent as written). */
  readonly headers?: HeaderInit;
  /**
   * Cookies for this request, merged over the client's jar (these win on a name collision).
   * Combining them with an explicit `Cookie` header is rejected as ambiguous.
   */
  readonly cookies?: Readonly<Record<string, string>>;
}

/** Body options; at most one of `json`, `content` and `data`/`files` per request. */
export interface BodyOptions {
  /** A JSON body (`JSON.stringify`), sent with `content-type: application/json`. */
  readonly json?: unknown;
  /** A raw body, sent as is (set `content-type` through `headers`). */
  readonly content?: string | Uint8Array;
  /** Plain `multipart/form-data` fields. */
  readonly data?: FormFields;
  /** `multipart/form-data` file parts. */
  readonly files?: FormFiles;
}

/** Options of `post`, `put`, `patch` and `request`: the common ones plus a body. */
export interface RequestWithBodyOptions extends RequestOptions, BodyOptions {}

/**
 * Options of `get`, `head`, `options` and `delete`: no body (a body key is a type error, and
 * a run-time `TypeError` for untyped callers).
 */
export interface RequestWithoutBodyOptions extends RequestOptions {
  readonly json?: never;
  readonly content?: never;
  readonly data?: never;
  readonly files?: never;
}

/**
 * Encodes query parameters (RFC 3986 percent-encoding, `%20` for spaces) and appends them to a
 * path that may already carry a query.
 *
 * @param path - The request path.
 * @param params - The parameters.
 * @example
 * withQuery('/items', { q: 'a b', tag: ['x', 'y'], active: true }); // '/items?q=a%20b&tag=x&tag=y&active=true'
 */
export function withQuery(path: string, params: QueryParams | undefined): string {
  if (!params) return path;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    const values: readonly QueryValue[] = isQueryList(value) ? value : [value];
    for (const one of values) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(one))}`);
  }
  if (parts.length === 0) return path;
  const hash = path.indexOf('#');
  const base = hash === -1 ? path : path.slice(0, hash);
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${joiner}${parts.join('&')}`;
}

function isQueryList(value: QueryValue | readonly QueryValue[]): value is readonly QueryValue[] {
  return Array.isArray(value);
}
