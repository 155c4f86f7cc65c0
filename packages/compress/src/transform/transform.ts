import {
  negotiateContentCoding,
  type BodyEncoder,
  type BodyTransform,
  type Exchange,
  type FinalHead,
  type HeaderList,
  type RouteInfo,
} from '@api/core/extension';
import { encoderFor, type Coding } from '../encoders/encoders';
import type { ResolvedOptions } from '../options/options';

/** Bounded memo size: Accept-Encoding and content-type values repeat; a hostile client cannot grow it. */
const MEMO = 256;

/**
 * Whether a route could ever send a body worth compressing, decided at wiring from its declared
 * responses: upgrade routes, routes that only answer 204, and routes whose every answer has a
 * fixed media type that is not compressible (e.g. `BytesResponse.of({ contentType: 'image/png' })`
 * sent as `Bytes`) get no transform and pay nothing. Custom routes (no declarations) and the
 * fallback of unrouted answers are decided per answer.
 *
 * @param route - the catalogue entry
 * @param options - resolved compression options
 */
export function couldCompress(route: RouteInfo, options: ResolvedOptions): boolean {
  if (route.kind === 'upgrade') return false;
  if (route.responses.length === 0) return true;
  return route.responses.some((r) => {
    if (r.kind === 'empty') return false;
    // A wrapper instance may carry its own content type (raw headers, BytesResponse.contentType).
    if (r.cls !== undefined || r.contentType === undefined) return true;
    return options.compressible(mediaType(r.contentType));
  });
}

/**
 * The per-answer decision, compiled once per options: it sees each answer's final head and
 *
 * - leaves alone an answer that is already encoded (`content-encoding`, e.g. an asset's gzip copy),
 *   says `cache-control: no-transform`, has no compressible media type, or is a buffered body under
 *   the threshold (none of these could have been compressed: no `vary` either);
 * - leaves untouched a `206 Partial Content`, a `416 Range Not Satisfiable` and any answer with
 *   `content-range`: its byte offsets count the identity body (RFC 9110 §14.4, §15.3.7), so an
 *   encoded one would break a resumed download;
 * - otherwise adds `accept-encoding` to `vary` (merged into one that exists, e.g. CORS's `Origin`),
 *   and for HEAD stops there (the head of the identity body; nothing is encoded for a HEAD);
 * - picks the coding from `Accept-Encoding` (q-values, core's rules shared with `@api/assets`),
 *   sets `content-encoding`, turns an `etag` weak (or suffixes it) and returns the encoder; core
 *   then sends the encoded length, or a chunked stream (fed and flushed once per event-loop turn).
 *
 * A 304 gets the `vary` (and the `etag` form) the 200 would carry.
 *
 * @param options - resolved compression options
 */
export function compileTransform(options: ResolvedOptions): BodyTransform {
  const offered: readonly Coding[] = options.encodings;
  const encoders = new Map<string, BodyEncoder>(
    offered.map((coding) => [coding, encoderFor(coding, options.levels[coding], options.syncBelow)] as const),
  );
  const threshold = options.threshold;
  const suffix = options.etag === 'suffix';
  const chosen = new Map<string, string | undefined>();
  const negotiate = (header: string | undefined): string | undefined => {
    if (header === undefined) return undefined;
    if (chosen.has(header)) return chosen.get(header);
    const coding = negotiateContentCoding(header, offered);
    if (chosen.size >= MEMO) chosen.clear();
    chosen.set(header, coding);
    return coding;
  };
  const types = new Map<string, boolean>();
  const compressible = (contentType: string): boolean => {
    let yes = types.get(contentType);
    if (yes === undefined) {
      yes = options.compressible(mediaType(contentType));
      if (types.size >= MEMO) types.clear();
      types.set(contentType, yes);
    }
    return yes;
  };

  return (ex: Exchange, head: FinalHead): BodyEncoder | undefined => {
    const { status, headers, length } = head;
    if (status < 200 || status === 206 || status === 416) return undefined;
    const found = scan(headers);
    if (found.encoded || found.noTransform || found.range) return undefined;
    if (status === 304) {
      addVary(headers, found.vary);
      const coding = negotiate(acceptEncoding(ex));
      if (coding !== undefined && found.etag >= 0)
        headers[found.etag + 1] = etagOf(headers[found.etag + 1]!, coding, suffix);
      return undefined;
    }
    if (found.type === undefined || !compressible(found.type)) return undefined;
    if (length !== undefined && length < threshold) return undefined;
    addVary(headers, found.vary);
    if (ex.method === 'HEAD') return undefined;
    const coding = negotiate(acceptEncoding(ex));
    if (coding === undefined) return undefined;
    headers.push('content-encoding', coding);
    if (found.etag >= 0) headers[found.etag + 1] = etagOf(headers[found.etag + 1]!, coding, suffix);
    return encoders.get(coding);
  };
}

function acceptEncoding(ex: Exchange): string | undefined {
  const value = ex.req.headers['accept-encoding'];
  return typeof value === 'string' ? value : undefined;
}

/** What one pass over the head finds (positions are of the name; its value is at +1). */
interface Found {
  type: string | undefined;
  encoded: boolean;
  noTransform: boolean;
  /** A `content-range`: the offsets of identity bytes. */
  range: boolean;
  etag: number;
  vary: number;
}

// One result object reused: the transform is synchronous and never re-entered.
const FOUND: Found = {
  type: undefined,
  encoded: false,
  noTransform: false,
  range: false,
  etag: -1,
  vary: -1,
};

/** Reads the head once: names as core writes them are lower case; others are compared lower-cased. */
function scan(headers: HeaderList): Found {
  const found = FOUND;
  found.type = undefined;
  found.encoded = false;
  found.noTransform = false;
  found.range = false;
  found.etag = -1;
  found.vary = -1;
  for (let i = 0; i < headers.length; i += 2) {
    const raw = headers[i]!;
    const length = raw.length;
    if (length !== 4 && length !== 12 && length !== 13 && length !== 16) continue;
    const name = raw.toLowerCase();
    if (name === 'content-type') found.type ??= headers[i + 1];
    else if (name === 'content-encoding') found.encoded ||= !/^\s*identity\s*$/i.test(headers[i + 1]!);
    else if (name === 'cache-control')
      found.noTransform ||= /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers[i + 1]!);
    else if (name === 'etag') found.etag = i;
    else if (name === 'content-range') found.range = true;
    else if (name === 'vary' && found.vary < 0) found.vary = i;
  }
  return found;
}

/** `accept-encoding` joins the response's `vary` (one header), unless it or `*` is there already. */
function addVary(headers: HeaderList, at: number): void {
  if (at < 0) {
    headers.push('vary', 'accept-encoding');
    return;
  }
  const value = headers[at + 1]!;
  for (const token of value.split(',')) {
    const t = token.trim().toLowerCase();
    if (t === '*' || t === 'accept-encoding') return;
  }
  headers[at + 1] = value.trim() === '' ? 'accept-encoding' : `${value}, accept-encoding`;
}

/** `"x"` → `W/"x"` (weak), or `"x-br"` (suffix); an etag already weak stays weak. */
function etagOf(etag: string, coding: string, suffix: boolean): string {
  const weak = etag.startsWith('W/');
  if (!suffix) return weak ? etag : `W/${etag}`;
  const opaque = weak ? etag.slice(2) : etag;
  if (!opaque.endsWith('"')) return etag;
  return `${weak ? 'W/' : ''}${opaque.slice(0, -1)}-${coding}"`;
}

/** The media type of a content-type value: before any parameter, trimmed, lower case. */
function mediaType(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}
