// Internal: parsing of `type/subtype; key=value; key="quoted"` header values (RFC 9110 §5.6.6),
// shared by Content-Type (boundary) and Content-Disposition. Not exported from the package.

/** A parsed `value; k=v; ...` header: the lower-cased leading value and lower-cased parameter names. */
export interface ParsedHeaderParams {
  value: string;
  params: Map<string, string>;
}

function isOws(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/**
 * Parses a parameterised header value; returns `undefined` on a syntax error (unterminated quote,
 * parameter without `=`, empty name). The first occurrence of a parameter wins.
 *
 * Inside quotes, `\"` and `\\` are unescaped; any other backslash is kept literally, because
 * browsers send Windows-style names like `a\b.txt` without escaping the backslash.
 */
export function parseHeaderParams(header: string): ParsedHeaderParams | undefined {
  const len = header.length;
  let i = header.indexOf(';');
  if (i === -1) i = len;
  const value = header.slice(0, i).trim().toLowerCase();
  const params = new Map<string, string>();
  while (i < len) {
    // header[i] is ';'
    i++;
    while (i < len && isOws(header.charCodeAt(i))) i++;
    if (i >= len) break; // trailing ';'
    if (header.charCodeAt(i) === 0x3b) continue; // empty parameter ';;'
    const eq = header.indexOf('=', i);
    const semi = header.indexOf(';', i);
    if (eq === -1 || (semi !== -1 && semi < eq)) return undefined;
    const name = header.slice(i, eq).trim().toLowerCase();
    if (name === '') return undefined;
    i = eq + 1;
    while (i < len && isOws(header.charCodeAt(i))) i++;
    let paramValue: string;
    if (i < len && header.charCodeAt(i) === 0x22) {
      i++;
      let out = '';
      let runStart = i;
      let closed = false;
      while (i < len) {
        const c = header.charCodeAt(i);
        if (c === 0x22) {
          out += header.slice(runStart, i);
          closed = true;
          i++;
          break;
        }
        if (c === 0x5c && i + 1 < len) {
          const next = header.charCodeAt(i + 1);
          if (next === 0x22 || next === 0x5c) {
            out += header.slice(runStart, i);
            runStart = i + 1;
            i += 2;
            continue;
          }
        }
        i++;
      }
      if (!closed) return undefined;
      paramValue = out;
      while (i < len && isOws(header.charCodeAt(i))) i++;
      if (i < len && header.charCodeAt(i) !== 0x3b) return undefined; // junk after the closing quote
    } else {
      let end = header.indexOf(';', i);
      if (end === -1) end = len;
      paramValue = header.slice(i, end).trim();
      i = end;
    }
    if (!params.has(name)) params.set(name, paramValue);
  }
  return { value, params };
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/**
 * Decodes an RFC 8187 (née 5987) `ext-value` such as `UTF-8''%E2%82%AC.txt`; returns `undefined`
 * for an unknown charset, a bad escape, or invalid UTF-8.
 */
export function decodeExtValue(extValue: string): string | undefined {
  const q1 = extValue.indexOf("'");
  if (q1 === -1) return undefined;
  const q2 = extValue.indexOf("'", q1 + 1);
  if (q2 === -1) return undefined;
  const charset = extValue.slice(0, q1).toLowerCase();
  if (charset !== 'utf-8' && charset !== 'iso-8859-1') return undefined;
  const encoded = extValue.slice(q2 + 1);
  const bytes = Buffer.allocUnsafe(encoded.length);
  let n = 0;
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i);
    if (c === 0x25) {
      const hi = hexValue(encoded.charCodeAt(i + 1));
      const lo = hexValue(encoded.charCodeAt(i + 2));
      if (hi < 0 || lo < 0) return undefined;
      bytes[n++] = hi * 16 + lo;
      i += 2;
    } else if (c > 0x20 && c < 0x7f) {
      bytes[n++] = c;
    } else {
      return undefined;
    }
  }
  const view = bytes.subarray(0, n);
  if (charset === 'iso-8859-1') return view.toString('latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(view);
  } catch {
    return undefined;
  }
}
