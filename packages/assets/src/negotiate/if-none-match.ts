/**
 * Whether an `If-None-Match` value matches an entity tag (RFC 9110 §13.1.2, weak comparison):
 * `*` matches; otherwise each comma-separated `"tag"` or `W/"tag"` is compared whole with `etag`
 * (a tag that merely contains it, or is contained in it, does not match). Malformed members are
 * skipped; several header lines arrive joined with `, `.
 *
 * @param header the request's `If-None-Match`
 * @param etag the representation's tag, quotes included (`"abc"`)
 *
 * @example
 * ifNoneMatch('W/"a", "b"', '"b"'); // true
 */
export function ifNoneMatch(header: string, etag: string): boolean {
  const n = header.length;
  let i = 0;
  while (i < n) {
    let c = header.charCodeAt(i);
    // Skip OWS and empty list elements.
    if (c === 0x20 || c === 0x09 || c === 0x2c) {
      i++;
      continue;
    }
    if (c === 0x2a /* * */) {
      const next = skipSpace(header, i + 1);
      if (next >= n || header.charCodeAt(next) === 0x2c) return true;
      i = skipMember(header, i);
      continue;
    }
    if (c === 0x57 /* W */ && header.charCodeAt(i + 1) === 0x2f /* / */) {
      i += 2;
      c = header.charCodeAt(i);
    }
    if (c !== 0x22 /* " */) {
      i = skipMember(header, i);
      continue;
    }
    const close = header.indexOf('"', i + 1);
    if (close < 0) return false;
    const after = skipSpace(header, close + 1);
    const wellFormed = after >= n || header.charCodeAt(after) === 0x2c;
    if (wellFormed && close + 1 - i === etag.length && header.startsWith(etag, i)) return true;
    i = wellFormed ? after : skipMember(header, close + 1);
  }
  return false;
}

function skipSpace(header: string, i: number): number {
  while (i < header.length) {
    const c = header.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) break;
    i++;
  }
  return i;
}

/** Index after the next comma outside a quoted tag (or the end). */
function skipMember(header: string, i: number): number {
  while (i < header.length) {
    const c = header.charCodeAt(i);
    if (c === 0x2c) return i + 1;
    if (c === 0x22) {
      const close = header.indexOf('"', i + 1);
      if (close < 0) return header.length;
      i = close + 1;
      continue;
    }
    i++;
  }
  return i;
}
