const decoder = new TextDecoder('utf-8'); // non-fatal: invalid UTF-8 becomes U+FFFD, never throws

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** Slow path: byte-wise percent-decoding where malformed escapes stay literal. */
function decodeLenient(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const hi = hexValue(s.charCodeAt(i + 1));
      const lo = hi < 0 ? -1 : hexValue(s.charCodeAt(i + 2));
      if (lo >= 0) {
        bytes.push(hi * 16 + lo);
        i += 2;
        continue;
      }
      bytes.push(c);
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      // A raw non-ASCII character in the query: re-encode it (and a surrogate pair together) as UTF-8.
      const cp = s.codePointAt(i) ?? c;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) bytes.push(b);
      if (cp > 0xffff) i++;
    }
  }
  return decoder.decode(Uint8Array.from(bytes));
}

function decodeComponent(query: string, start: number, end: number): string {
  let s = query.slice(start, end);
  let hasPercent = false;
  let hasPlus = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) hasPercent = true;
    else if (c === 0x2b) hasPlus = true;
  }
  if (hasPlus) s = s.replaceAll('+', ' ');
  if (!hasPercent) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return decodeLenient(s);
  }
}

/**
 * Parses a URL query string (without or with its leading `?`) into name → every value, in order.
 *
 * `&`-separated; the first `=` splits name from value; `+` means space; percent-escapes decode as
 * UTF-8 while malformed escapes stay as written (it never throws). Pairs with an empty value (`a=`,
 * `a`) or an empty name are skipped, so they count as absent. Names keep first-seen order; the
 * caller picks the last value or collects them all.
 *
 * @param query - The raw query, e.g. `req.url.slice(req.url.indexOf('?') + 1)`.
 * @example
 * parseQuery('tag=a&tag=b&q=hello+world&empty='); // Map { 'tag' => ['a', 'b'], 'q' => ['hello world'] }
 */
export function parseQuery(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const len = query.length;
  let start = len > 0 && query.charCodeAt(0) === 0x3f ? 1 : 0;
  // One running '=' position keeps the scan linear when many pairs have no '='.
  let eq = query.indexOf('=', start);
  while (start < len) {
    let end = query.indexOf('&', start);
    if (end === -1) end = len;
    if (eq !== -1 && eq < start) eq = query.indexOf('=', start);
    if (eq === -1) break;
    // An empty value (or no '=' at all) counts as absent.
    if (eq !== -1 && eq < end - 1 && eq > start) {
      const name = decodeComponent(query, start, eq);
      const value = decodeComponent(query, eq + 1, end);
      const values = out.get(name);
      if (values === undefined) out.set(name, [value]);
      else values.push(value);
    }
    start = end + 1;
  }
  return out;
}
