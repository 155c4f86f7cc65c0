import { toHeaderName } from './header-name';

/** Each operation name's HTTP method (Resource and Endpoint operations alike). */
export const METHODS: Readonly<Record<string, string>> = {
  create: 'POST',
  readMany: 'GET',
  readOne: 'GET',
  updateFull: 'PUT',
  updatePartial: 'PATCH',
  delete: 'DELETE',
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
};

type Values = Readonly<Record<string, unknown>>;
/** A fetch request body (`BodyInit` is a DOM-only name; this one resolves with Node's types too). */
export type RequestBody = NonNullable<RequestInit['body']>;

/** A value as text on the wire: strings as they are, objects as JSON, the rest through `String`. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * The request target: the mount path with its `{slots}` filled, then (item operations) the other
 * path fields as segments, then the query. Values are percent-encoded; a missing slot throws.
 *
 * @param mount - the mount path, e.g. `/users/{user_id}/widgets`
 * @param path - the `path` input
 * @param params - the `params` input
 */
export function target(mount: string, path: Values | undefined, params: Values | undefined): string {
  const used = new Set<string>();
  let url = mount.replace(/\{([^}]*)\}/g, (_, slot: string) => {
    const value = path?.[slot];
    if (value === undefined || value === null)
      throw new TypeError(
        `@api/client: path slot "${slot}" of ${mount} is missing. Fix: pass path: { ${slot} }.`,
      );
    used.add(slot);
    return encodeURIComponent(text(value));
  });
  // Item operations (readOne, updateFull, …) extend the mount with their other path fields.
  for (const [field, value] of Object.entries(path ?? {}))
    if (!used.has(field) && value !== undefined) url += `/${encodeURIComponent(text(value))}`;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) query.append(name, text(item));
  }
  const search = query.toString();
  return search ? `${url}?${search}` : url;
}

/**
 * Sets the declared `headers` (field names mapped as core maps them) and `cookies` (one `cookie`
 * header: a browser ignores it and sends its own jar).
 */
export function setDeclaredHeaders(
  into: Headers,
  headers: Values | undefined,
  cookies: Values | undefined,
): void {
  for (const [field, value] of Object.entries(headers ?? {}))
    if (value !== undefined && value !== null) into.set(toHeaderName(field), text(value));
  const pairs = Object.entries(cookies ?? {}).filter(([, value]) => value !== undefined && value !== null);
  if (pairs.length > 0) into.set('cookie', pairs.map(([name, value]) => `${name}=${text(value)}`).join('; '));
}

/** A multipart body from a form object: files and blobs as file parts, objects as JSON text. */
export function formData(form: Values | FormData): FormData {
  if (form instanceof FormData) return form;
  const data = new FormData();
  for (const [name, value] of Object.entries(form)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item instanceof Blob) data.append(name, item);
      else data.append(name, text(item));
    }
  }
  return data;
}

/**
 * A url-encoded body from a form object (arrays as repeats, objects as JSON text); a file cannot
 * travel url-encoded, so a `Blob` value throws.
 */
export function urlEncoded(form: Values | URLSearchParams): URLSearchParams {
  if (form instanceof URLSearchParams) return form;
  const data = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item instanceof Blob)
        throw new TypeError(
          `@api/client: form field "${name}" is a file, which cannot be sent url-encoded. Fix: leave out formEncoding (multipart).`,
        );
      data.append(name, text(item));
    }
  }
  return data;
}

/** The body and its media type for the `json`, `form` and `content` inputs (none: no body). */
export function requestBody(input: Values, headers: Headers): RequestBody | undefined {
  if ('json' in input) {
    headers.set('content-type', 'application/json');
    return JSON.stringify(input.json);
  }
  // A FormData body sets its own multipart content type with the boundary; a URLSearchParams one
  // sets application/x-www-form-urlencoded;charset=UTF-8.
  if (input.form !== undefined)
    return input.form instanceof URLSearchParams || input.formEncoding === 'urlencoded'
      ? urlEncoded(input.form as Values | URLSearchParams)
      : formData(input.form as Values | FormData);
  if (input.content !== undefined) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream');
    return input.content as RequestBody;
  }
  return undefined;
}
