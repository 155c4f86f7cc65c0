/**
 * Thrown by `orThrow()` when the server answered an error: the failure is on `answer` (narrow it
 * on `status`), the decoded body on `error`.
 *
 * @example
 * try { await api.widgets.readOne({ path: { widget_id } }).orThrow(); }
 * catch (e) { if (e instanceof ResponseError && e.status === 404) … }
 */
export class ResponseError<
  TFailure extends { readonly status: number; readonly error: unknown } = {
    readonly status: number;
    readonly error: unknown;
    readonly response: Response;
  },
> extends Error {
  override readonly name = 'ResponseError';
  /** The failure as the call resolved it. */
  readonly answer: TFailure;
  constructor(answer: TFailure) {
    const error = answer.error as { type?: unknown; title?: unknown } | undefined;
    const what = typeof error?.type === 'string' ? ` ${error.type}` : '';
    super(`HTTP ${answer.status}${what}`);
    this.answer = answer;
  }
  /** The status the server answered. */
  get status(): TFailure['status'] {
    return this.answer.status;
  }
  /** The decoded error body (a Problem, a `StructHTTPError` body, or what a proxy sent). */
  get error(): TFailure['error'] {
    return this.answer.error;
  }
}
