/** Weights in thousandths; `UNLISTED` when the header does not name the coding. */
const UNLISTED = -1;
/** At most this many offered codings (the weights live in a fixed array, no allocation per call). */
const MAX_OFFERED = 8;

/**
 * Picks the content coding to send from an `Accept-Encoding` value (RFC 9110 §12.5.3) among the
 * codings the server can produce, or `undefined` for the body as it is (identity):
 *
 * - weights are `q` parameters (0 to 1, three decimals); `q=0` refuses a coding; codings and `q`
 *   are case-insensitive; `x-gzip` is `gzip`; other parameters are ignored;
 * - when a coding's weight is given more than once (repeated entries or parameters), the lowest
 *   counts: a refusal is never overridden; an entry with a malformed weight is ignored;
 * - `*` weighs every coding the header does not name, `identity` included;
 * - the best-weighted offered coding wins (the earlier in `offered` on a tie) unless `identity` is
 *   named (or covered by `*`) with a strictly higher weight; when no offered coding is acceptable
 *   the body is sent as is — even after `identity;q=0`, since an unencoded answer is always
 *   understood. A missing header accepts identity only.
 *
 * Shared by `@api/assets` (precompressed copies) and `@api/compress` (dynamic compression), so a
 * client is answered alike by both.
 *
 * @param header - the request's `Accept-Encoding` (several header lines joined with `, `)
 * @param offered - lower-case codings the server can produce, in its order of preference
 * @example
 * negotiateContentCoding('gzip, deflate, br;q=0.9', ['br', 'gzip']); // 'gzip'
 * negotiateContentCoding('br;q=0, *', ['br', 'gzip']); // 'gzip'
 * negotiateContentCoding(undefined, ['gzip']); // undefined
 */
export function negotiateContentCoding(
  header: string | undefined,
  offered: readonly string[],
): string | undefined {
  if (header === undefined || header === '') return undefined;
  const count = Math.min(offered.length, MAX_OFFERED);
  const weights = WEIGHTS;
  for (let k = 0; k < count; k++) weights[k] = UNLISTED;
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
    let coding = header.slice(i, codingEnd).trim().toLowerCase();
    let q = 1000;
    if (codingEnd < end) q = weight(header, codingEnd + 1, end);
    i = end + 1;
    if (coding === '' || q < 0) continue;
    if (coding === 'x-gzip') coding = 'gzip';
    if (coding === 'identity') identity = lowest(identity, q);
    else if (coding === '*') star = lowest(star, q);
    else {
      const k = offered.indexOf(coding);
      if (k >= 0 && k < count) weights[k] = lowest(weights[k]!, q);
    }
  }
  if (identity === UNLISTED) identity = star;
  let best = 0;
  let chosen = -1;
  for (let k = 0; k < count; k++) {
    const w = weights[k] === UNLISTED ? (star === UNLISTED ? 0 : star) : weights[k]!;
    if (w > best) {
      best = w;
      chosen = k;
    }
  }
  if (chosen < 0 || identity > best) return undefined;
  return offered[chosen];
}

// One scratch array for every call: negotiation is synchronous and never re-entered.
const WEIGHTS: number[] = new Array<number>(MAX_OFFERED).fill(UNLISTED);

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
