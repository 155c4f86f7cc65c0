// The app's one trust-proxy setting, read by URL building and by the client's address.
import type { RequestHead } from '../contract/exchange';
import type { TrustProxy } from '../contract/serving-options';

/** The app's `trustProxy`, or `true` when it is absent and `APP_TRUST_FORWARDED` is set. */
export function resolveTrustProxy(
  option: TrustProxy | undefined,
  env: Readonly<Record<string, string | undefined>>,
): TrustProxy {
  if (option !== undefined) return option;
  const flag = env.APP_TRUST_FORWARDED?.trim().toLowerCase();
  return flag !== undefined && flag !== '' && flag !== '0' && flag !== 'false';
}

function firstValue(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const comma = v.indexOf(',');
  return (comma < 0 ? v : v.slice(0, comma)).trim() || undefined;
}

/**
 * The client's address: the connection's peer, or — when the app trusts its proxy — what
 * `X-Forwarded-For` says (`true`: its first address; `n`: the address `n` hops in from the
 * connection's peer). Undefined when nothing tells (a fetch server without forwarded headers).
 *
 * @param req - the request's head
 * @param trust - the app's `trustProxy`
 */
export function clientAddressOf(req: RequestHead, trust: TrustProxy): string | undefined {
  const peer = req.socket?.remoteAddress;
  if (trust === false || trust === 0) return peer;
  const header = req.headers['x-forwarded-for'];
  if (header === undefined) return peer;
  const hops = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  if (hops.length === 0) return peer;
  if (trust === true) return hops[0];
  // Each trusted proxy appends the address it saw: the client is the entry `trust` in from the
  // right, whether or not the peer (the nearest proxy) is known — on app.fetch it is not.
  return hops[Math.max(0, hops.length - trust)];
}

/**
 * The scheme the client used: `https` over TLS or when the fetch transport's `Request` URL says
 * so, else `http`; with a trusted proxy, its `X-Forwarded-Proto` (`http` or `https`) first.
 *
 * @param req - the request's head
 * @param trust - the app's `trustProxy`
 */
export function schemeOf(req: RequestHead, trust: TrustProxy): 'http' | 'https' {
  if (trust !== false && trust !== 0) {
    const proto = firstValue(req.headers['x-forwarded-proto'])?.toLowerCase();
    if (proto === 'https' || proto === 'http') return proto;
  }
  if (req.scheme !== undefined) return req.scheme;
  return req.socket?.encrypted === true ? 'https' : 'http';
}
