import { contentType, lookup } from 'mime-types';

/** What a file's suffix gives: the `content-type` value and whether compressing it is worthwhile. */
export interface MediaType {
  /** The bare media type, e.g. `text/css`. */
  readonly type: string;
  /** The header value: text types get `; charset=utf-8`. */
  readonly contentType: string;
  /** Text-like (text/*, JSON, JavaScript, XML and their `+json`/`+xml` kin): worth a gzip copy. */
  readonly compressible: boolean;
}

/**
 * Suffixes that `mime-types` maps to `video/mp2t` but that are far more often TypeScript source
 * (`.ts`, `.mts`): served only when an include glob names the suffix itself.
 */
export const AMBIGUOUS_SUFFIXES: ReadonlySet<string> = new Set(['.ts', '.mts']);

const TEXT_LIKE = /^(?:text\/|application\/(?:json|javascript|ecmascript|x-javascript|xml)$)|\+(?:json|xml)$/;

/**
 * The media type of a file from its suffix (`mime-types` is the table), or `undefined` when the
 * suffix is unknown.
 *
 * @param path the file's relative path
 */
export function mediaTypeOf(path: string): MediaType | undefined {
  const type = lookup(path);
  if (type === false) return undefined;
  const header = contentType(type);
  return {
    type,
    contentType: header === false ? type : header,
    compressible: TEXT_LIKE.test(type),
  };
}

/**
 * The lowercase suffix of a path (`.css`), or `''` when the last segment has none.
 *
 * @param path a `/`-separated path
 */
export function suffixOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot).toLowerCase();
}
