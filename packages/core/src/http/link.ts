import { encodeUriReference } from './uri';

/**
 * Target attributes of one RFC 8288 link.
 *
 * @example
 * const params: LinkParams = { rel: 'next', title: 'Page 2', mediaType: 'application/json' };
 */
export interface LinkParams {
  /** Relation type(s), space-separated; required and non-empty. */
  rel: string;
  /** Human-readable label. Non-ASCII titles are sent as `title*` (RFC 8187). */
  title?: string;
  /** Hint of the target's media type, sent as `type`. */
  mediaType?: string;
}

function assertNoLineBreak(what: string, value: string): void {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x0d || c === 0x0a || c === 0x00) {
      throw new TypeError(`Link ${what} must not contain CR, LF or NUL characters`);
    }
  }
}

function quote(value: string): string {
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x22 || c === 0x5c) {
      out += `${value.slice(runStart, i)}\\`;
      runStart = i;
    }
  }
  return `${out}${value.slice(runStart)}"`;
}

function isAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) > 0x7e) return false;
  return true;
}

// RFC 8187 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
function encodeExtValue(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  let out = "UTF-8''";
  for (const b of bytes) {
    const ch = String.fromCharCode(b);
    if (
      (b >= 0x30 && b <= 0x39) ||
      (b >= 0x41 && b <= 0x5a) ||
      (b >= 0x61 && b <= 0x7a) ||
      (b < 0x80 && '!#$&+-.^_`|~'.includes(ch))
    ) {
      out += ch;
    } else {
      out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

/**
 * Formats one RFC 8288 link-value: `<uri>; rel="…"; title="…"; type="…"`.
 *
 * The URI is passed through {@link encodeUriReference}; parameter values are quoted-strings with `"`
 * and `\` escaped. A title with non-ASCII characters is sent as `title*=UTF-8''…` instead. Several
 * links join into one `Link` header with `, `.
 *
 * @param uri - The target URI reference.
 * @param params - `rel` (required, non-empty), optional `title` and `mediaType`.
 * @throws TypeError when `rel` is empty or any parameter contains CR, LF or NUL.
 * @example
 * formatLink('/widgets?page=2', { rel: 'next', title: 'Page "2"' });
 * // '</widgets?page=2>; rel="next"; title="Page \"2\""'
 */
export function formatLink(uri: string, params: LinkParams): string {
  const { rel, title, mediaType } = params;
  if (typeof rel !== 'string' || rel.trim() === '')
    throw new TypeError('Link rel must be a non-empty string');
  assertNoLineBreak('rel', rel);
  let out = `<${encodeUriReference(uri)}>; rel=${quote(rel)}`;
  if (title !== undefined) {
    assertNoLineBreak('title', title);
    out += isAscii(title) ? `; title=${quote(title)}` : `; title*=${encodeExtValue(title)}`;
  }
  if (mediaType !== undefined) {
    assertNoLineBreak('type', mediaType);
    out += `; type=${quote(mediaType)}`;
  }
  return out;
}
