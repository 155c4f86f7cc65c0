import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Exchange } from '@api/core/extension';

/** One ready-to-send body with its strong ETag. */
interface Variant {
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * A response decided once at wiring: body bytes, strong ETags, optional gzip/brotli variants.
 * Per request the handler only compares strings and picks a buffer.
 */
export interface Precomputed {
  readonly identity: Variant;
  readonly gzip: Variant | undefined;
  readonly br: Variant | undefined;
  /** Headers sent on 200 and 304 (cache-control, vary, security headers). */
  readonly common: readonly string[];
  /** Headers sent on 200 only (content-type, content-encoding is added per variant). */
  readonly contentType: string;
}

/** Options of `precompute`. */
export interface PrecomputeOptions {
  readonly contentType: string;
  readonly cacheControl: string;
  /** Extra constant headers (CSP, nosniff), sent on 200 and 304. */
  readonly headers?: readonly (readonly [string, string])[];
  /** A strong ETag already known for these bytes (e.g. a vendored file's checked sha-256). */
  readonly etag?: string;
  /**
   * Compress now: `true` (gzip and brotli), `'gzip'` (gzip only: cheaper at wiring for a large,
   * generated body); or take pre-compressed copies; or not at all (`false`).
   */
  readonly compress?: boolean | 'gzip' | { readonly gzip?: Buffer; readonly br?: Buffer };
}

/** The strong ETag of some bytes: the first 32 hex digits of their sha-256 (as @api/assets does). */
export function strongEtag(bytes: Uint8Array, suffix = ''): string {
  return `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}${suffix}"`;
}

/** Keep a compressed copy only when it saves at least 10%. */
function worthIt(original: Buffer, compressed: Buffer): boolean {
  return compressed.length < original.length * 0.9;
}

/** Builds a precomputed response; compression happens here, once. */
export function precompute(body: Buffer, options: PrecomputeOptions): Precomputed {
  const etag = options.etag ?? strongEtag(body);
  const hex = etag.slice(1, -1);
  let gzip: Variant | undefined;
  let br: Variant | undefined;
  const compress = options.compress ?? true;
  if (compress === true || compress === 'gzip') {
    const gz = gzipSync(body);
    if (worthIt(body, gz)) gzip = { body: gz, etag: `"${hex}-gzip"` };
  }
  if (compress === true) {
    const b = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    if (worthIt(body, b)) br = { body: b, etag: `"${hex}-br"` };
  } else if (typeof compress === 'object') {
    if (compress.gzip) gzip = { body: compress.gzip, etag: `"${hex}-gzip"` };
    if (compress.br) br = { body: compress.br, etag: `"${hex}-br"` };
  }
  const common: string[] = ['cache-control', options.cacheControl];
  if (gzip || br) common.push('vary', 'accept-encoding');
  for (const [name, value] of options.headers ?? []) common.push(name, value);
  return { identity: { body, etag }, gzip, br, common, contentType: options.contentType };
}

/** The q-value a comma list of codings gives `coding` (0 when absent or refused). */
function accepts(header: string, coding: string): boolean {
  let star = false;
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (name !== coding && name !== '*') continue;
    let q = 1;
    for (const p of params) {
      const [k, val] = p.split('=');
      if (k?.trim().toLowerCase() === 'q') q = Number(val?.trim());
    }
    const ok = Number.isFinite(q) && q > 0;
    if (name === coding) return ok;
    star = ok;
  }
  return star;
}

/** True when `If-None-Match` names `etag` (comma lists, `*` and weak `W/` forms match). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

/** Answers a request from a precomputed response: variant by `Accept-Encoding`, 304 on a match. */
export function sendPrecomputed(ex: Exchange, p: Precomputed): void {
  const acceptEncoding = ex.req.headers['accept-encoding'];
  let variant = p.identity;
  let encoding: string | undefined;
  if (acceptEncoding !== undefined && (p.br || p.gzip)) {
    if (p.br && accepts(acceptEncoding, 'br')) {
      variant = p.br;
      encoding = 'br';
    } else if (p.gzip && accepts(acceptEncoding, 'gzip')) {
      variant = p.gzip;
      encoding = 'gzip';
    }
  }
  const headers = ['etag', variant.etag, ...p.common];
  if (matchesEtag(ex.req.headers['if-none-match'], variant.etag)) {
    ex.send(304, headers);
    return;
  }
  headers.push('content-type', p.contentType);
  if (encoding !== undefined) headers.push('content-encoding', encoding);
  ex.send(200, headers, variant.body);
}
