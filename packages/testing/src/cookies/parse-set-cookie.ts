/** One `Set-Cookie` line, parsed: the value as sent and its attributes keyed by lowercased name. */
export interface ResponseCookie {
  /** The cookie name, as sent. */
  readonly name: string;
  /** The cookie value, as sent (quotes and percent-escapes are kept). */
  readonly value: string;
  /**
   * Attributes keyed by lowercased name (`Max-Age` → `max-age`); a flag attribute (`Secure`,
   * `HttpOnly`) maps to `true`. `expires` keeps the raw wire value.
   */
  readonly attributes: Readonly<Record<string, string | true>>;
}

/**
 * Parses one `Set-Cookie` header value. Attribute names are matched case-insensitively and
 * stored lowercased; the last occurrence of a repeated attribute wins. Returns `undefined` for
 * a line without a `name=` pair.
 *
 * @param line - The header value, e.g. `session_id=abc; Path=/; HttpOnly`.
 * @example
 * parseSetCookie('a=1; Max-Age=0; Secure');
 * // { name: 'a', value: '1', attributes: { 'max-age': '0', secure: true } }
 */
export function parseSetCookie(line: string): ResponseCookie | undefined {
  const [pair = '', ...rest] = line.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return undefined;
  const name = pair.slice(0, eq).trim();
  if (name === '') return undefined;
  const value = pair.slice(eq + 1).trim();
  const attributes: Record<string, string | true> = Object.create(null) as Record<string, string | true>;
  for (const part of rest) {
    const at = part.indexOf('=');
    const key = (at === -1 ? part : part.slice(0, at)).trim().toLowerCase();
    if (key === '') continue;
    attributes[key] = at === -1 ? true : part.slice(at + 1).trim();
  }
  return { name, value, attributes };
}

/**
 * Parses every `Set-Cookie` line of a response into a record keyed by cookie name; when a
 * name repeats, the last line wins (as a browser would store it).
 *
 * @param lines - The `Set-Cookie` header values, in wire order.
 * @example
 * parseSetCookies(['a=1', 'b=2; HttpOnly']).b?.attributes.httponly; // true
 */
export function parseSetCookies(lines: readonly string[]): Record<string, ResponseCookie> {
  const out: Record<string, ResponseCookie> = Object.create(null) as Record<string, ResponseCookie>;
  for (const line of lines) {
    const cookie = parseSetCookie(line);
    if (cookie) out[cookie.name] = cookie;
  }
  return out;
}

/**
 * True when a parsed cookie tells the client to forget it: `Max-Age` of zero or less, or
 * (without `Max-Age`, which takes precedence) an `Expires` date in the past.
 *
 * @param cookie - A parsed `Set-Cookie` line.
 * @param now - The current time in ms (for tests); defaults to `Date.now()`.
 * @example
 * isExpiredCookie(parseSetCookie('a=; Max-Age=0')!); // true
 */
export function isExpiredCookie(cookie: ResponseCookie, now: number = Date.now()): boolean {
  const maxAge = cookie.attributes['max-age'];
  if (typeof maxAge === 'string' && /^-?\d+$/.test(maxAge)) return Number(maxAge) <= 0;
  const expires = cookie.attributes.expires;
  if (typeof expires === 'string') {
    const at = Date.parse(expires);
    if (!Number.isNaN(at)) return at <= now;
  }
  return false;
}
