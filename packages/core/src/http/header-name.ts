function isUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}

function isLowerOrDigit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

/**
 * Maps a typed header field name to its wire name: camelCase words and `_` become `-`, all lower-case.
 *
 * A run of capitals is one word (`contentMD5` → `content-md5`); a capital that starts a lower-case
 * word ends the run (`XMLHttpRequest` → `xml-http-request`). Already-kebab names pass through.
 * Used for typed response headers and for binding request headers alike.
 *
 * @param field - A schema field name.
 * @example
 * toHeaderName('xTraceId'); // 'x-trace-id'
 * toHeaderName('x_trace_id'); // 'x-trace-id'
 */
export function toHeaderName(field: string): string {
  let out = '';
  const len = field.length;
  for (let i = 0; i < len; i++) {
    const c = field.charCodeAt(i);
    if (c === 0x5f) {
      out += '-';
    } else if (isUpper(c)) {
      const prev = i > 0 ? field.charCodeAt(i - 1) : 0;
      const next = i + 1 < len ? field.charCodeAt(i + 1) : 0;
      const startsWord = isLowerOrDigit(prev) || (isUpper(prev) && next >= 0x61 && next <= 0x7a);
      out += (startsWord ? '-' : '') + String.fromCharCode(c + 32);
    } else {
      out += field[i];
    }
  }
  return out;
}

/**
 * Whether a flat header list (name, value, name, value…) holds `name` (lower case), whatever the
 * case it was written in.
 *
 * @example
 * hasHeader(['Content-Type', 'text/csv'], 'content-type'); // true
 */
export function hasHeader(list: readonly string[], name: string): boolean {
  for (let i = 0; i < list.length; i += 2) if (list[i]!.toLowerCase() === name) return true;
  return false;
}
