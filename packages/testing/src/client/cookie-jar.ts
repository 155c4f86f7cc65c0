import { isExpiredCookie, parseSetCookie } from '../cookies/parse-set-cookie';
import { headerPairs, type HeaderInit } from '../multipart/build-multipart';

/**
 * The `Cookie` header value a request or a WebSocket handshake carries: the jar merged with
 * `cookies` (which win on a name collision); `undefined` when there is nothing to send or when
 * `headers` hold an explicit `Cookie` header (which suppresses the jar).
 *
 * @param jar - The client's jar, when it keeps one.
 * @param cookies - Per-request cookies.
 * @param headers - The request's explicit headers.
 */
export function cookieHeader(
  jar: ReadonlyMap<string, string> | undefined,
  cookies: Readonly<Record<string, string>> | undefined,
  headers: HeaderInit | undefined,
): string | undefined {
  const explicit = headerPairs(headers).some(([name]) => name.toLowerCase() === 'cookie');
  if (explicit) {
    if (cookies !== undefined) {
      throw new TypeError(
        'TestClient: both `cookies` and an explicit Cookie header were given, which is ambiguous. Fix: pass the cookies one way.',
      );
    }
    return undefined;
  }
  const merged = new Map<string, string>(jar ?? []);
  for (const [name, value] of Object.entries(cookies ?? {})) merged.set(name, value);
  if (merged.size === 0) return undefined;
  return [...merged].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * Stores a response's `Set-Cookie` lines in the jar (name → value); an expired cookie
 * (`Max-Age` ≤ 0 or a past `Expires`) removes its entry. Does nothing without a jar.
 *
 * @param jar - The client's jar, when it keeps one.
 * @param setCookies - The response's `Set-Cookie` lines, in wire order.
 */
export function rememberCookies(jar: Map<string, string> | undefined, setCookies: readonly string[]): void {
  if (!jar) return;
  for (const line of setCookies) {
    const cookie = parseSetCookie(line);
    if (!cookie) continue;
    if (isExpiredCookie(cookie)) jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
}
