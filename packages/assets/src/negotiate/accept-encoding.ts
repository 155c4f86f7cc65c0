import { negotiateContentCoding } from '@api/core/extension';

/** A content coding an asset can be sent in. */
export type Encoding = 'identity' | 'gzip' | 'br';

/** Which compressed copies exist (bit flags). */
export const HAS_GZIP = 1;
export const HAS_BR = 2;

const BOTH: readonly string[] = ['br', 'gzip'];
const GZIP: readonly string[] = ['gzip'];
const BR: readonly string[] = ['br'];
const NONE: readonly string[] = [];

/**
 * Picks the coding to send from an `Accept-Encoding` value (RFC 9110 §12.5.3), given which
 * compressed copies exist. The rules are core's `negotiateContentCoding` (shared with
 * `@api/compress`): `q` weights, `q=0` refuses, the lowest of repeated weights counts, `*` covers
 * unnamed codings, `x-gzip` is `gzip`; brotli wins a tie; `identity` only when named (or covered
 * by `*`) with a strictly higher weight, or when no copy is acceptable.
 *
 * @param header the request's `Accept-Encoding` (several header lines joined with `, `)
 * @param available `HAS_GZIP | HAS_BR` flags of the copies the asset has
 *
 * @example
 * negotiate('gzip, deflate, br;q=0.9', HAS_GZIP | HAS_BR); // 'gzip'
 */
export function negotiate(header: string, available: number): Encoding {
  const offered =
    (available & HAS_BR) !== 0
      ? (available & HAS_GZIP) !== 0
        ? BOTH
        : BR
      : (available & HAS_GZIP) !== 0
        ? GZIP
        : NONE;
  return (negotiateContentCoding(header, offered) as Encoding | undefined) ?? 'identity';
}
