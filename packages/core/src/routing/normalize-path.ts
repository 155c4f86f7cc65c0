// Request-target normalization (RFC 9112 §3.2, RFC 3986 §6.2.2). The runtime calls these only
// when a cheap check says they are needed: a target that does not start with "/", a path with "%".

/** Hex digit value of a char code, or -1. */
function hex(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87; // a-f, A-F
  return -1;
}

/** RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(code: number): boolean {
  const lower = code | 0x20;
  return (
    (lower >= 97 && lower <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 45 ||
    code === 46 ||
    code === 95 ||
    code === 126
  );
}

const UPPER_HEX = '0123456789ABCDEF';

/**
 * Normalizes the percent-encoding of a path (RFC 3986 §6.2.2.1–2): an encoded unreserved character
 * (`%70` → `p`, `%7E` → `~`) is decoded, every other triplet gets upper-case hex digits (`%c3%a9`
 * → `%C3%A9`). Nothing else changes: `%2F` stays `%2F` (data, never a separator), a `%` that
 * starts no valid triplet stays as sent (the path binder answers 404 for it), and no dot-segment
 * or slash is touched. Returns the same string when nothing changes.
 *
 * @param path - A request path (no query), still percent-encoded.
 * @example
 * normalizePercentEncoding('/pin%67/caf%c3%a9'); // '/ping/caf%C3%A9'
 */
export function normalizePercentEncoding(path: string): string {
  let out = '';
  let copied = 0;
  for (let i = path.indexOf('%'); i >= 0 && i + 2 < path.length; i = path.indexOf('%', i + 1)) {
    const high = hex(path.charCodeAt(i + 1));
    const low = high < 0 ? -1 : hex(path.charCodeAt(i + 2));
    if (low < 0) continue;
    const code = high * 16 + low;
    let replacement: string;
    if (isUnreserved(code)) replacement = String.fromCharCode(code);
    else {
      replacement = '%' + UPPER_HEX[high]! + UPPER_HEX[low]!;
      if (
        path.charCodeAt(i + 1) === replacement.charCodeAt(1) &&
        path.charCodeAt(i + 2) === replacement.charCodeAt(2)
      )
        continue; // already canonical
    }
    out += path.slice(copied, i) + replacement;
    copied = i + 3;
    i += 2;
  }
  return copied === 0 ? path : out + path.slice(copied);
}

/**
 * The origin-form of an absolute-form request target (RFC 9112 §3.2.2: `GET http://host/ping`
 * must be accepted): the path and query after the authority (`/` when there is no path). Returns
 * the target unchanged when it is not an `http`/`https` absolute URI (it then routes nowhere), and
 * `undefined` when it is one that a server must refuse (userinfo, no host).
 *
 * The authority is dropped, never used: URLs the app builds come from `APP_BASE_URL`,
 * `APP_TRUST_FORWARDED` or stay relative, so a foreign authority in the target reaches nothing.
 *
 * @param target - The request target as sent (`req.url`), not starting with `/`.
 * @example
 * toOriginForm('http://example.com/ping?x=1'); // '/ping?x=1'
 * toOriginForm('HTTP://example.com'); // '/'
 */
export function toOriginForm(target: string): string | undefined {
  const colon = target.indexOf('://');
  if (colon !== 4 && colon !== 5) return target;
  const scheme = target.slice(0, colon).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return target;
  const start = colon + 3;
  let end = start;
  while (end < target.length) {
    const c = target.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    end++;
  }
  const authority = target.slice(start, end);
  // RFC 9110 §4.2.4: userinfo in an http(s) URI is an error; an empty host names no server.
  if (authority === '' || authority.includes('@')) return undefined;
  const rest = target.slice(end);
  if (rest === '') return '/';
  return rest.charCodeAt(0) === 47 ? rest : '/' + rest;
}
