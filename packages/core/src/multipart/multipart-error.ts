/** Why a multipart body was refused: bad syntax, an oversized part, or too many parts/fields. */
export type MultipartErrorKind = 'malformed' | 'too-large' | 'too-many';

/**
 * A multipart/form-data body that cannot be accepted.
 *
 * `kind` lets the caller choose the response: `too-large` → 413, `malformed` / `too-many` → 400.
 * Messages never contain submitted bytes.
 *
 * @example
 * try {
 *   await parseMultipart(req, boundary);
 * } catch (e) {
 *   if (e instanceof MultipartError && e.kind === 'too-large') { ... }
 * }
 */
export class MultipartError extends Error {
  override readonly name = 'MultipartError';
  /** The category of failure. */
  readonly kind: MultipartErrorKind;
  /** For `too-large`: the limit that was passed (`multipart.maxFileSize` …) and its bytes. */
  readonly limit: { readonly limit: string; readonly bytes: number } | undefined;

  /**
   * @param kind - The category of failure.
   * @param message - A description that names the rule, never the submitted data.
   * @param limit - For `too-large`: the limit's option name and its bytes.
   */
  constructor(kind: MultipartErrorKind, message: string, limit?: { limit: string; bytes: number }) {
    super(message);
    this.kind = kind;
    this.limit = limit;
  }
}
