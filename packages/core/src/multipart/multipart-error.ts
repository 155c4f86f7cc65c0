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

  /**
   * @param kind - The category of failure.
   * @param message - A description that names the rule, never the submitted data.
   */
  constructor(kind: MultipartErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}
