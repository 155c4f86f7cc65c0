/** The `SameSite` attribute values accepted by {@link SetCookie}. */
export type SameSite = 'lax' | 'strict' | 'none';

/**
 * Attributes of a {@link SetCookie}; omitted fields take the secure defaults
 * (`path: '/'`, `secure: true`, `httpOnly: true`, `sameSite: 'lax'`, `partitioned: false`).
 *
 * @example
 * const options: SetCookieOptions = { maxAge: 3600, sameSite: 'strict' };
 */
export interface SetCookieOptions {
  /** Lifetime in whole seconds (`Max-Age`); `0` or less expires the cookie. */
  maxAge?: number;
  /** Absolute expiry (`Expires`), written as an IMF-fixdate. */
  expires?: Date;
  /** `Path`; must start with `/`. Defaults to `/`. */
  path?: string;
  /** `Domain`; omitted means host-only. */
  domain?: string;
  /** `Secure`; defaults to `true`. */
  secure?: boolean;
  /** `HttpOnly`; defaults to `true`. */
  httpOnly?: boolean;
  /** `SameSite`; defaults to `'lax'`. `'none'` requires `secure`. */
  sameSite?: SameSite;
  /** `Partitioned` (CHIPS); requires `secure`. Defaults to `false`. */
  partitioned?: boolean;
}

import { describeValue, WiringError, type WiringErrorCode } from '../contract/wiring-error';

/**
 * A `SetCookie` whose name, value or attributes break RFC 6265 or a cookie-prefix rule, or an
 * argument of the wrong kind. A `WiringError` (a programming mistake, like every wrong argument).
 *
 * Raised at construction; the message names the cookie and the attribute.
 *
 * @example
 * try { new SetCookie('sid', 'x', { path: 'admin' }); } catch (e) { if (e instanceof CookieError) { ... } }
 */
export class CookieError extends WiringError {
  override readonly name: string = 'CookieError';
  /** Every cookie mistake is one kind: `'API_WIRING_COOKIE'`. */
  override get code(): WiringErrorCode {
    return 'API_WIRING_COOKIE';
  }
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'maxAge',
  'expires',
  'path',
  'domain',
  'secure',
  'httpOnly',
  'sameSite',
  'partitioned',
]);

/** Per construction: typeof checks and a short key scan (a typo such as `httponly` would be ignored). */
function checkOptions(where: string, options: unknown): void {
  if (typeof options !== 'object' || options === null)
    throw new CookieError(
      `${where}: options must be an object of attributes, got ${describeValue(options)}. ` +
        'Fix: e.g. { maxAge: 3600 }, or nothing for the secure defaults.',
    );
  for (const key in options)
    if (!OPTION_KEYS.has(key))
      throw new CookieError(
        `${where}: unknown attribute "${key}". Fix: use only ${[...OPTION_KEYS].join(', ')}.`,
      );
  const o = options as Record<string, unknown>;
  for (const key of ['secure', 'httpOnly', 'partitioned'])
    if (o[key] !== undefined && typeof o[key] !== 'boolean')
      throw new CookieError(
        `${where}: attribute "${key}" must be true or false, got ${describeValue(o[key])}. Fix: ` +
          `${key}: ${key === 'partitioned' ? 'true' : 'false'}, or leave it out for the default.`,
      );
}

const SAME_SITE_WIRE: Readonly<Record<SameSite, string>> = { lax: 'Lax', strict: 'Strict', none: 'None' };

// RFC 6265 / RFC 2616 token: visible ASCII except separators.
const TOKEN = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) TOKEN[c] = 1;
for (const ch of '()<>@,;:\\"/[]?={}') TOKEN[ch.charCodeAt(0)] = 0;

// RFC 6265 cookie-octet: %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E.
const COOKIE_OCTET = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) COOKIE_OCTET[c] = 1;
for (const ch of '",;\\') COOKIE_OCTET[ch.charCodeAt(0)] = 0;

function isToken(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || TOKEN[c] !== 1) return false;
  }
  return true;
}

function isCookieValue(s: string): boolean {
  let start = 0;
  let end = s.length;
  if (end >= 2 && s.charCodeAt(0) === 0x22 && s.charCodeAt(end - 1) === 0x22) {
    start = 1;
    end -= 1;
  }
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || COOKIE_OCTET[c] !== 1) return false;
  }
  return true;
}

/** True when `s` has a CTL, a `;`, or a non-ASCII character (or a space, when `noSpace`). */
function hasBadAttributeChar(s: string, noSpace: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || c === 0x3b || (noSpace && c === 0x20)) return true;
  }
  return false;
}

/**
 * One `Set-Cookie` response header: validated at construction, immutable, serialised once.
 *
 * @param name - An RFC 6265 token.
 * @param value - Cookie-octets, optionally wrapped in one pair of double quotes. Defaults to `''`.
 * @param options - Attributes; unset fields take the secure defaults.
 * @example
 * new SetCookie('session_id', 'abc123', { maxAge: 3600 }).toHeader();
 * // 'session_id=abc123; Max-Age=3600; Path=/; Secure; HttpOnly; SameSite=Lax'
 */
export class SetCookie {
  /** Cookie name, as sent. */
  readonly name: string;
  /** Cookie value, as sent. */
  readonly value: string;
  /** `Max-Age` in seconds, when set. */
  readonly maxAge: number | undefined;
  /** `Expires`, when set (a private copy of the given date). */
  readonly expires: Date | undefined;
  /** `Path`. */
  readonly path: string;
  /** `Domain`, when set. */
  readonly domain: string | undefined;
  /** `Secure`. */
  readonly secure: boolean;
  /** `HttpOnly`. */
  readonly httpOnly: boolean;
  /** `SameSite`. */
  readonly sameSite: SameSite;
  /** `Partitioned`. */
  readonly partitioned: boolean;
  readonly #header: string;

  constructor(name: string, value: string = '', options: SetCookieOptions = {}) {
    const fail = (attribute: string, rule: string): CookieError =>
      new CookieError(`SetCookie ${JSON.stringify(name)}: attribute "${attribute}" ${rule}`);

    if (typeof name !== 'string' || !isToken(name)) throw fail('name', 'must be a non-empty RFC 6265 token');
    checkOptions(`SetCookie ${JSON.stringify(name)}`, options);
    if (typeof value !== 'string' || !isCookieValue(value)) {
      throw fail(
        'value',
        'must contain only RFC 6265 cookie-octets (no space, \'"\', ",", ";", "\\" or non-ASCII)',
      );
    }
    const {
      maxAge,
      expires,
      path = '/',
      domain,
      secure = true,
      httpOnly = true,
      sameSite = 'lax',
      partitioned = false,
    } = options;

    if (maxAge !== undefined && !Number.isSafeInteger(maxAge)) throw fail('maxAge', 'must be an integer');
    if (expires !== undefined && (!(expires instanceof Date) || Number.isNaN(expires.getTime()))) {
      throw fail('expires', 'must be a valid Date');
    }
    if (typeof path !== 'string' || path.charCodeAt(0) !== 0x2f || path.includes(';')) {
      throw fail('path', 'must start with "/" and contain no ";"');
    }
    if (hasBadAttributeChar(path, false))
      throw fail('path', 'must contain no control or non-ASCII characters');
    if (
      domain !== undefined &&
      (typeof domain !== 'string' || domain === '' || hasBadAttributeChar(domain, true))
    ) {
      throw fail('domain', 'must be non-empty and contain no ";", space, control or non-ASCII characters');
    }
    if (!Object.hasOwn(SAME_SITE_WIRE, sameSite)) throw fail('sameSite', 'must be "lax", "strict" or "none"');
    if (sameSite === 'none' && !secure) throw fail('sameSite', '"none" requires secure: true');
    if (partitioned && !secure) throw fail('partitioned', 'requires secure: true');

    // Browsers match cookie prefixes case-insensitively (RFC 6265bis), so we do too.
    const lower = name.slice(0, 9).toLowerCase();
    if (lower.startsWith('__host-')) {
      if (!secure) throw fail('secure', 'must be true for a "__Host-" cookie');
      if (path !== '/') throw fail('path', 'must be "/" for a "__Host-" cookie');
      if (domain !== undefined) throw fail('domain', 'must be unset for a "__Host-" cookie');
    } else if (lower.startsWith('__secure-') && !secure) {
      throw fail('secure', 'must be true for a "__Secure-" cookie');
    }

    this.name = name;
    this.value = value;
    this.maxAge = maxAge;
    this.expires = expires === undefined ? undefined : new Date(expires.getTime());
    this.path = path;
    this.domain = domain;
    this.secure = secure;
    this.httpOnly = httpOnly;
    this.sameSite = sameSite;
    this.partitioned = partitioned;

    let header = `${name}=${value}`;
    if (maxAge !== undefined) header += `; Max-Age=${maxAge}`;
    if (expires !== undefined) header += `; Expires=${expires.toUTCString()}`;
    if (domain !== undefined) header += `; Domain=${domain}`;
    header += `; Path=${path}`;
    if (secure) header += '; Secure';
    if (httpOnly) header += '; HttpOnly';
    header += `; SameSite=${SAME_SITE_WIRE[sameSite]}`;
    if (partitioned) header += '; Partitioned';
    this.#header = header;
  }

  /**
   * A cookie that clears `name` in the browser: empty value, `Max-Age=0`, `Expires` at the Unix epoch.
   *
   * `path` and `domain` must match the cookie being cleared.
   *
   * @param name - The cookie to clear.
   * @param options - The `path` (default `/`) and `domain` the cookie was set with.
   * @example
   * SetCookie.expire('session_id').toHeader();
   * // 'session_id=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; Secure; HttpOnly; SameSite=Lax'
   */
  static expire(name: string, options: { path?: string; domain?: string } = {}): SetCookie {
    if (typeof options !== 'object' || options === null)
      throw new CookieError(
        `SetCookie.expire(${JSON.stringify(name)}): options must be { path?, domain }, got ` +
          `${describeValue(options)}. Fix: pass the path and domain the cookie was set with, or nothing.`,
      );
    for (const key in options)
      if (key !== 'path' && key !== 'domain')
        throw new CookieError(
          `SetCookie.expire(${JSON.stringify(name)}): unknown option "${key}". ` +
            'Fix: use only path, domain (they must match the cookie being cleared).',
        );
    const attributes: SetCookieOptions = { maxAge: 0, expires: new Date(0) };
    if (options.path !== undefined) attributes.path = options.path;
    if (options.domain !== undefined) attributes.domain = options.domain;
    return new SetCookie(name, '', attributes);
  }

  /**
   * The `Set-Cookie` header value (computed once, at construction).
   *
   * @example
   * res.appendHeader('set-cookie', new SetCookie('theme', 'dark').toHeader());
   */
  toHeader(): string {
    return this.#header;
  }
}

function parseCookieLine(out: Record<string, string>, line: string): void {
  const len = line.length;
  let start = 0;
  // One running '=' position keeps the scan linear even when many fragments have no '='.
  let eq = line.indexOf('=');
  while (start < len) {
    let end = line.indexOf(';', start);
    if (end === -1) end = len;
    if (eq !== -1 && eq < start) eq = line.indexOf('=', start);
    if (eq === -1) return;
    if (eq < end) {
      const name = line.slice(start, eq).trim();
      if (name !== '' && !(name in out)) {
        let value = line.slice(eq + 1, end).trim();
        const vl = value.length;
        if (vl >= 2 && value.charCodeAt(0) === 0x22 && value.charCodeAt(vl - 1) === 0x22) {
          value = value.slice(1, vl - 1);
        }
        out[name] = value;
      }
    }
    start = end + 1;
  }
}

/**
 * Parses request `Cookie` header line(s) into a name → value object (null prototype).
 *
 * All lines are treated as joined with `;`; the first `=` splits name from value, both are trimmed,
 * one pair of surrounding double quotes is stripped, the first occurrence of a name wins, and
 * fragments without a name or without `=` are skipped. Values are not percent-decoded.
 *
 * @param lines - `req.headers.cookie`, or every `cookie` line, or `undefined`.
 * @example
 * parseCookieHeader('a=1; b="two"; a=3'); // { a: '1', b: 'two' }
 */
export function parseCookieHeader(lines: string | readonly string[] | undefined): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (lines === undefined) return out;
  if (typeof lines === 'string') {
    parseCookieLine(out, lines);
  } else {
    for (let i = 0; i < lines.length; i++) parseCookieLine(out, lines[i] as string);
  }
  return out;
}
