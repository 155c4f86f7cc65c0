// RFC 3986 character classes as 128-entry lookup tables (1 = may appear unescaped).
const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const GEN_DELIMS = ':/?#[]@';

function table(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
}

const URI_REFERENCE = table(UNRESERVED + SUB_DELIMS + GEN_DELIMS);
const PATH_SEGMENT = table(`${UNRESERVED}${SUB_DELIMS}:@`);
const HEX = '0123456789ABCDEF';

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function pct(byte: number): string {
  return `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
}

/** Percent-encodes the code point starting at `s[i]` as UTF-8; returns [encoded, code units consumed]. */
function encodeNonAscii(s: string, i: number): [string, number] {
  let cp = s.charCodeAt(i);
  let used = 1;
  if (cp >= 0xd800 && cp <= 0xdbff) {
    const lo = s.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      used = 2;
    } else {
      cp = 0xfffd; // lone high surrogate
    }
  } else if (cp >= 0xdc00 && cp <= 0xdfff) {
    cp = 0xfffd; // lone low surrogate
  }
  if (cp < 0x80) return [pct(cp), used];
  if (cp < 0x800) return [pct(0xc0 | (cp >> 6)) + pct(0x80 | (cp & 63)), used];
  if (cp < 0x10000) {
    return [pct(0xe0 | (cp >> 12)) + pct(0x80 | ((cp >> 6) & 63)) + pct(0x80 | (cp & 63)), used];
  }
  return [
    pct(0xf0 | (cp >> 18)) +
      pct(0x80 | ((cp >> 12) & 63)) +
      pct(0x80 | ((cp >> 6) & 63)) +
      pct(0x80 | (cp & 63)),
    used,
  ];
}

function encodeWith(value: string, allowed: Uint8Array, keepEscapes: boolean): string {
  const len = value.length;
  let out = '';
  let runStart = 0;
  for (let i = 0; i < len; ) {
    const c = value.charCodeAt(i);
    if (c < 128 && allowed[c] === 1) {
      i++;
      continue;
    }
    if (
      keepEscapes &&
      c === 0x25 &&
      i + 2 < len &&
      isHex(value.charCodeAt(i + 1)) &&
      isHex(value.charCodeAt(i + 2))
    ) {
      i += 3;
      continue;
    }
    out += value.slice(runStart, i);
    if (c < 128) {
      out += pct(c);
      i++;
    } else {
      const [encoded, used] = encodeNonAscii(value, i);
      out += encoded;
      i += used;
    }
    runStart = i;
  }
  // Nothing needed escaping: hand back the input itself (no allocation).
  return runStart === 0 ? value : out + value.slice(runStart);
}

/**
 * Percent-encodes what may not appear unescaped in an RFC 3986 URI reference, for `Location` and
 * `Link` values.
 *
 * Unreserved and reserved characters pass through, and so does `%` when it starts a valid `%XX`
 * escape (so an already-encoded URI is never double-encoded). Everything else — CR, LF, space,
 * `"<>\^`{|}`, other controls, a stray `%`, and non-ASCII (as UTF-8) — is percent-encoded.
 *
 * @param value - A URI or relative reference.
 * @example
 * encodeUriReference('/files/a b/ü?q=1#x'); // '/files/a%20b/%C3%BC?q=1#x'
 */
export function encodeUriReference(value: string): string {
  return encodeWith(value, URI_REFERENCE, true);
}

/**
 * Percent-encodes a value for one path segment (filling a `{slot}` in a path template).
 *
 * Like `encodeURIComponent`, but sub-delims (`!$&'()*+,;=`), `:` and `@` stay unescaped, as RFC 3986
 * allows in a segment; `/`, `?`, `#`, `%`, `[` and `]` are always encoded, so the value can neither
 * split the segment nor smuggle an escape.
 *
 * @param value - The raw segment value.
 * @example
 * encodePathSegment('a/b c:d@e%'); // 'a%2Fb%20c:d@e%25'
 */
export function encodePathSegment(value: string): string {
  return encodeWith(value, PATH_SEGMENT, false);
}
