/** A content coding an asset can be sent in. */
export type Encoding = 'identity' | 'gzip' | 'br';

/** Which compressed copies exist (bit flags). */
export const HAS_GZIP = 1;
export const HAS_BR = 2;

/** Weights in thousandths; `UNLISTED` when the header does not name the coding. */
const UNLISTED = -1;

/**
 * Picks the coding to send from an `Accept-Encoding` value (RFC 9110 §12.5.3), given which
 * compressed copies exist:
 *
 * - weights are `q` parameters (0 to 1, three decimals); `q=0` refuses a coding; codings and `q`
 *   are case-insensitive; `x-gzip` is `gzip`; other parameters are ignored;
 * - when a coding's weight is given more than once (repeated entries or parameters), the lowest
 *   counts: a refusal is never overridden; an entry with a malformed weight is ignored;
 * - `*` weighs every coding the header does not name, `identity` included;
 * - the best-weighted compressed copy wins (brotli over gzip on a tie) unless `identity` is named
 *   (or covered by `*`) with a strictly higher weight; when no compressed copy is acceptable the
 *   file is sent as is — even after `identity;q=0`, since an uncompressed answer is always
 *   understood.
 *
 * @param header the request's `Accept-Encoding` (several header lines joined with `, `)
 * @param available `HAS_GZIP | HAS_BR` flags of the copies the asset has
 *
 * @example
 * negotiate('gzip, deflate, br;q=0.9', HAS_GZIP | HAS_BR); // 'gzip'
 */
export function negotiate(header: string, available: number): Encoding {
  let gzip = UNLISTED;
  let br = UNLISTED;
  let identity = UNLISTED;
  let star = UNLISTED;
  const n = header.length;
  let i = 0;
  let semi = -1; // the next ';' at or after i, searched again only once passed (linear overall)
  while (i < n) {
    // One list element: coding *( OWS ";" OWS param ) up to the next comma.
    let end = header.indexOf(',', i);
    if (end < 0) end = n;
    if (semi < i) {
      semi = header.indexOf(';', i);
      if (semi < 0) semi = n;
    }
    const codingEnd = semi < end ? semi : end;
    const coding = header.slice(i, codingEnd).trim().toLowerCase();
    let q = 1000;
    if (codingEnd < end) q = weight(header, codingEnd + 1, end);
    i = end + 1;
    if (coding === '' || q < 0) continue;
    if (coding === 'gzip' || coding === 'x-gzip') gzip = lowest(gzip, q);
    else if (coding === 'br') br = lowest(br, q);
    else if (coding === 'identity') identity = lowest(identity, q);
    else if (coding === '*') star = lowest(star, q);
  }
  if (gzip === UNLISTED) gzip = star === UNLISTED ? 0 : star;
  if (br === UNLISTED) br = star === UNLISTED ? 0 : star;
  if (identity === UNLISTED) identity = star;
  if ((available & HAS_GZIP) === 0) gzip = 0;
  if ((available & HAS_BR) === 0) br = 0;
  const useBr = br > 0 && br >= gzip;
  const best = useBr ? br : gzip;
  if (best <= 0 || identity > best) return 'identity';
  return useBr ? 'br' : 'gzip';
}

const lowest = (prior: number, q: number): number => (prior === UNLISTED || q < prior ? q : prior);

/** The `q` of the parameters in `header[from, to)`: thousandths, 1000 when absent, -1 when malformed. */
function weight(header: string, from: number, to: number): number {
  let q = 1000;
  for (const param of header.slice(from, to).split(';')) {
    const eq = param.indexOf('=');
    const name = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
    if (name !== 'q') continue;
    const value = eq < 0 ? undefined : qvalue(param.slice(eq + 1).trim());
    if (value === undefined) return -1;
    if (value < q) q = value;
  }
  return q;
}

/** `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` in thousandths. */
function qvalue(text: string): number | undefined {
  const m = /^(?:(0)(?:\.(\d{0,3}))?|(1)(?:\.(0{0,3}))?)$/.exec(text);
  if (m === null) return undefined;
  if (m[3] !== undefined) return 1000;
  return Number((m[2] ?? '').padEnd(3, '0'));
}
