import type { ProblemView, CompiledAdapter, RenderedError } from './base-http-error';
import { BaseHTTPError, checkErrorOptions, HTTP_ERROR_KEYS } from './base-http-error';
import { jsonString } from '../schema/serializer';

/** Class options of a static Problem error. */
export interface HTTPErrorOptions {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  /** A documentation URL, sent as the `docs` member of the Problem body. */
  readonly docs?: string;
}

/**
 * A static Problem error class as `HTTPError.define` returns it: `status` and `type` keep their
 * literal types, so an exception handler's `returns: [ConflictError]` ties status 409 to its body.
 */
export type HTTPErrorClass<TStatus extends number = number, TType extends string = string> = (abstract new (
  message?: string,
) => HTTPError) & {
  readonly status: TStatus;
  readonly type: TType;
  readonly title: string;
  readonly docs: string | undefined;
};

const PROBLEM_JSON = 'application/problem+json';
const staticBodies = new WeakMap<object, string>();
const problemHeads = new WeakMap<object, string>();

/**
 * The Problem family (RFC 9457). `type` is a stable machine code; clients decide on it, never on
 * `title` or `detail`.
 *
 * @example
 * class InvalidTokenError extends HTTPError.define({ type: 'invalid-token', title: 'Invalid token', status: 401 }) {}
 * throw new InvalidTokenError();
 */
export abstract class HTTPError extends BaseHTTPError implements ProblemView {
  static readonly type: string = 'about:blank';
  static readonly title: string = 'Error';
  static readonly docs: string | undefined = undefined;

  get type(): string {
    return (this.constructor as typeof HTTPError).type;
  }
  get title(): string {
    return (this.constructor as typeof HTTPError).title;
  }
  get docs(): string | undefined {
    return (this.constructor as typeof HTTPError).docs;
  }
  /** Rendered detail for parameterized errors; undefined for static ones. */
  get detail(): string | undefined {
    return undefined;
  }

  override toString(): string {
    return this.detail ?? this.title;
  }

  /** JSON text of the `params` member, when the error is parameterized. */
  protected paramsJson(): string | undefined {
    return undefined;
  }

  /** The Problem body as JSON text: `type, title, status, [docs], [detail, params]`. */
  problemJson(): string {
    const detail = this.detail;
    if (detail === undefined) {
      const cls = this.constructor;
      let body = staticBodies.get(cls);
      if (body === undefined) {
        body = this.problemHead() + '}';
        staticBodies.set(cls, body);
      }
      return body;
    }
    // `jsonString`, not `JSON.stringify`: the same text, without a call into the runtime for the
    // common detail that needs no escapes (a 400/422 answer's cost).
    return `${this.problemHead()},"detail":${jsonString(detail)},"params":${this.paramsJson() ?? '{}'}}`;
  }

  private problemHead(): string {
    const cls = this.constructor;
    let head = problemHeads.get(cls);
    if (head === undefined) {
      const docs = this.docs;
      head =
        `{"type":${JSON.stringify(this.type)},"title":${JSON.stringify(this.title)},"status":${this.status}` +
        (docs === undefined ? '' : `,"docs":${JSON.stringify(docs)}`);
      problemHeads.set(cls, head);
    }
    return head;
  }

  render(adapter?: CompiledAdapter): RenderedError {
    if (adapter) {
      const rendered = adapter.render(this);
      if (rendered) return rendered;
    }
    return { status: this.status, contentType: PROBLEM_JSON, body: this.problemJson() };
  }

  /**
   * Declares a static Problem error class.
   *
   * @example
   * class TeapotError extends HTTPError.define({ type: 'teapot', title: 'I am a teapot', status: 418 }) {}
   */
  static define<const TType extends string, const TStatus extends number>(
    options: HTTPErrorOptions & { readonly type: TType; readonly status: TStatus },
  ): HTTPErrorClass<TStatus, TType> {
    checkErrorOptions('HTTPError.define', options, HTTP_ERROR_KEYS);
    abstract class Defined extends HTTPError {
      static override readonly type = options.type;
      static override readonly title = options.title;
      static override readonly status = options.status;
      static override readonly docs = options.docs;
      constructor(message?: string) {
        super(message);
      }
    }
    return Defined;
  }
}

// `message` reads the detail (parameterized) or the title, computed only when someone asks.
Object.defineProperty(HTTPError.prototype, 'message', {
  configurable: true,
  get(this: HTTPError): string {
    return this.detail ?? this.title;
  },
});
