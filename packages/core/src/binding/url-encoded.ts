// `application/x-www-form-urlencoded` bodies (what an HTML `<form>` posts by default), read as the
// parts of a form: each `name=value` pair is one part without a filename, so a `form` Struct binds
// them by the same field rules as multipart (coercion, repeats for arrays, 422 paths).
import type { MultipartLimits } from '../contract/limits';
import { MalformedRequestError, PayloadTooLargeError } from '../errors';
import type { MultipartPart } from '../multipart';

const NO_HEADERS: ReadonlyArray<readonly [string, string]> = Object.freeze([]);

/** True for an `application/x-www-form-urlencoded` content type (parameters ignored, case-insensitive). */
export function isUrlEncodedForm(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const end = contentType.indexOf(';');
  return (
    (end < 0 ? contentType : contentType.slice(0, end)).trim().toLowerCase() ===
    'application/x-www-form-urlencoded'
  );
}

function malformed(message: string): MalformedRequestError {
  return new MalformedRequestError({
    reason: `Malformed form body: ${message}`,
    issues: [{ path: 'form', message }],
  });
}

/** Decodes one name or value: `+` is a space, then percent-decoding as UTF-8 (a broken escape is a 400). */
function decode(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw malformed('a percent-escape is not valid UTF-8');
  }
}

/**
 * Parses a url-encoded body into form parts (WHATWG `application/x-www-form-urlencoded`: `&`
 * separates pairs, the first `=` splits, `+` is a space; an empty pair is skipped). The multipart
 * limits bound it: more than `maxFields` pairs is a 400, a value over `maxFieldSize` bytes a 413.
 *
 * @param body - The whole body (UTF-8).
 * @param limits - The route's multipart limits.
 * @example
 * parseUrlEncoded(Buffer.from('name=Ada+L&tags=a&tags=b'), defaultMultipartLimits);
 * // parts: name "Ada L", tags "a", tags "b"
 */
export function parseUrlEncoded(body: Buffer, limits: MultipartLimits): MultipartPart[] {
  const parts: MultipartPart[] = [];
  if (body.length === 0) return parts;
  const text = body.toString('utf8');
  const max = Math.min(limits.maxFields, limits.maxParts);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    if (parts.length === max) throw malformed(`more than ${max} fields`);
    const eq = pair.indexOf('=');
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const data = Buffer.from(value, 'utf8');
    if (data.length > limits.maxFieldSize)
      throw new PayloadTooLargeError({ limit: 'multipart.maxFieldSize', bytes: limits.maxFieldSize });
    parts.push({ name, filename: undefined, contentType: undefined, rawHeaders: NO_HEADERS, data });
  }
  return parts;
}
