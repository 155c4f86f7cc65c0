import * as v from 'valibot';
import { compileSerializer, type Serializer } from '../schema/serializer';
import { objectEntries, unwrap, type SchemaNode } from '../schema/introspect';
import { Struct } from '../schema/struct';
import { WiringError } from './wiring-error';

/** A rendered error body, ready for the wire. */
export interface RenderedError {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** The Problem view an `ErrorBodyAdapter` composes from. */
export interface ProblemView {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  /** The title, or the rendered detail for parameterized errors. */
  toString(): string;
}

/** Replaces the Problem-family wire body app-wide (`ErrorBodyAdapter[B]`). */
export interface ErrorBodyAdapter<TSchema extends v.GenericSchema = v.GenericSchema> {
  /** The body schema `B`; its compiled serializer writes the body. */
  readonly schema: TSchema;
  /** Pure: builds the body from the error alone. */
  compose(error: ProblemView): v.InferOutput<TSchema>;
  /** An int field the framework adds, fed the status; must not exist on `B`. */
  readonly statusField?: string;
}

/**
 * An `Error` whose construction skips stack capture: HTTP errors are answers, not bugs, and
 * capturing a stack costs more than the rest of a 404 (they are never logged as failures).
 */
const StacklessError = function StacklessError(this: unknown, message?: string): Error {
  // An object on Error's prototype chain (instanceof Error holds, `message`/`name` work), built
  // without the engine's stack capture.
  const error = Object.create((new.target ?? StacklessError).prototype as object) as Error;
  if (message !== undefined) Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true });
  return error;
} as unknown as new (message?: string) => Error;
StacklessError.prototype = Object.create(Error.prototype, {
  constructor: { value: StacklessError, writable: true, configurable: true },
}) as Error;

/**
 * The abstract root of every framework error. Every concrete error declares its status.
 * Never subclass the root directly: use `HTTPError.define`, `DataclassHTTPError.define` or
 * `StructHTTPError.define`.
 */
export abstract class BaseHTTPError extends StacklessError {
  /** The HTTP status; declared once on the class. */
  static readonly status: number = 500;

  get status(): number {
    return (this.constructor as typeof BaseHTTPError).status;
  }

  /** Renders this occurrence's wire body (the adapter applies to the Problem family only). */
  abstract render(adapter?: CompiledAdapter): RenderedError;
}

/** Class options of a static Problem error. */
export interface HTTPErrorOptions {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  /** A documentation URL, sent as the `docs` member of the Problem body. */
  readonly docs?: string;
}

/** An adapter prepared at wiring. */
export interface CompiledAdapter {
  render(error: HTTPError): RenderedError | undefined;
}

const PROBLEM_JSON = 'application/problem+json';
const staticBodies = new WeakMap<object, string>();
const problemHeads = new WeakMap<object, string>();

function checkStatus(where: string, status: number): void {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new WiringError(
      `${where}: status ${status} is not an error status. Fix: use an integer from 400 to 599.`,
    );
  }
}

/**
 * The Problem family (RFC 9457). `type` is a stable machine code; clients decide on it, never on
 * `title` or `detail`.
 *
 * @example
 * class InvalidTokenError extends HTTPError.define({ type: 'invalid-token', title: 'Invalid token', status: 401 }) {}
 * throw new InvalidTokenError();
 */
export abstract class HTTPError extends BaseHTTPError {
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
    return `${this.problemHead()},"detail":${JSON.stringify(detail)},"params":${this.paramsJson() ?? '{}'}}`;
  }

  private problemHead(): string {
    const cls = this.constructor;
    let head = problemHeads.get(cls);
    if (head === undefined) {
      const docs = this.docs;
      head = `{"type":${JSON.stringify(this.type)},"title":${JSON.stringify(this.title)},"status":${this.status}${docs === undefined ? '' : `,"docs":${JSON.stringify(docs)}`}`;
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
  static define(options: HTTPErrorOptions): abstract new (message?: string) => HTTPError {
    checkStatus(`HTTPError.define({ type: '${options.type}' })`, options.status);
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

/** Renders a `str.format`-style template: `{name}` placeholders, `{{` / `}}` literal braces. */
export function renderTemplate(template: string, params: Record<string, unknown>): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === '{') {
      if (template[i + 1] === '{') {
        out += '{';
        i++;
        continue;
      }
      const end = template.indexOf('}', i);
      const key = template.slice(i + 1, end);
      const value = params[key];
      out += typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
      i = end;
    } else if (c === '}') {
      out += '}';
      if (template[i + 1] === '}') i++;
    } else out += c;
  }
  return out;
}

/** The placeholder names a template uses; throws on an unbalanced brace. */
export function templateFields(where: string, template: string): string[] {
  const names: string[] = [];
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '{') {
      if (template[i + 1] === '{') {
        i++;
        continue;
      }
      const end = template.indexOf('}', i);
      if (end < 0)
        throw new WiringError(
          `${where}: template ${JSON.stringify(template)} has an unclosed "{". Fix: close it or escape it as "{{".`,
        );
      names.push(template.slice(i + 1, end));
      i = end;
    } else if (c === '}') {
      if (template[i + 1] !== '}')
        throw new WiringError(
          `${where}: template ${JSON.stringify(template)} has a lone "}". Fix: escape it as "}}".`,
        );
      i++;
    }
  }
  return names;
}

/** Class options of a parameterized Problem error. */
export interface DataclassHTTPErrorOptions extends HTTPErrorOptions {
  /** A template over the params fields, e.g. `'Widget {widgetId} not found'`. */
  readonly detailTemplate: string;
}

/** A parameterized Problem error class produced by `DataclassHTTPError.define`. */
export interface DataclassHTTPErrorClass<TParams extends v.GenericSchema> {
  new (params: v.InferInput<TParams>): DataclassHTTPErrorBase<v.InferOutput<TParams>>;
  readonly paramsSchema: TParams;
  readonly detailTemplate: string;
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly docs: string | undefined;
}

/**
 * A Problem error with typed `params` and a `detail` rendered from `detailTemplate`.
 *
 * @example
 * const WidgetNotFoundParams = Struct('WidgetNotFoundParams', { widgetId: v.string() });
 * class WidgetNotFoundError extends DataclassHTTPError.define(WidgetNotFoundParams, {
 *   type: 'widget-not-found', title: 'Widget not found', status: 404, detailTemplate: 'Widget {widgetId} not found',
 * }) {}
 * throw new WidgetNotFoundError({ widgetId: '42' });
 */
abstract class DataclassHTTPErrorBase<TParams = unknown> extends HTTPError {
  static readonly detailTemplate: string = '';
  static readonly paramsSchema: v.GenericSchema = v.object({});
  // Plain properties assigned in the constructor (no field initializers on the error path).
  /** The typed params of this occurrence. */
  declare readonly params: TParams;
  declare private renderedDetail: string | undefined;

  constructor(params: TParams) {
    super();
    (this as { params: TParams }).params = params;
    this.renderedDetail = undefined;
  }

  override get detail(): string {
    if (this.renderedDetail === undefined) {
      const cls = this.constructor as typeof DataclassHTTPErrorBase;
      this.renderedDetail = renderTemplate(cls.detailTemplate, this.params as Record<string, unknown>);
    }
    return this.renderedDetail;
  }

  protected override paramsJson(): string {
    const cls = this.constructor as typeof DataclassHTTPErrorBase & { [kParamsSerializer]?: Serializer };
    let ser = Object.hasOwn(cls, kParamsSerializer) ? cls[kParamsSerializer] : undefined;
    if (!ser) {
      ser = compileSerializer(cls.paramsSchema);
      Object.defineProperty(cls, kParamsSerializer, { value: ser });
    }
    return ser(this.params);
  }

  /** Declares a parameterized Problem error class; the template is checked against the params. */
  static defineParameterized<TParams extends v.GenericSchema>(
    paramsSchema: TParams,
    options: DataclassHTTPErrorOptions,
  ): DataclassHTTPErrorClass<TParams> {
    const where = `DataclassHTTPError.define({ type: '${options.type}' })`;
    checkStatus(where, options.status);
    const entries = objectEntries(paramsSchema);
    if (!entries)
      throw new WiringError(`${where}: params schema is not an object schema. Fix: pass a Struct.`);
    for (const field of templateFields(where, options.detailTemplate)) {
      if (!(field in entries)) {
        throw new WiringError(
          `${where}: detailTemplate names "{${field}}", which is not a params field. Fix: add "${field}" to the params Struct or change the template.`,
        );
      }
    }
    abstract class Defined extends DataclassHTTPErrorBase<v.InferOutput<TParams>> {
      static override readonly type = options.type;
      static override readonly title = options.title;
      static override readonly status = options.status;
      static override readonly docs = options.docs;
      static override readonly detailTemplate = options.detailTemplate;
      static override readonly paramsSchema: v.GenericSchema = paramsSchema;
    }
    return Defined as unknown as DataclassHTTPErrorClass<TParams>;
  }
}

const kParamsSerializer = Symbol('paramsSerializer');

/** A parameterized Problem error (`DataclassHTTPError[P]`): typed `params`, rendered `detail`. */
export type DataclassHTTPError<TParams = unknown> = DataclassHTTPErrorBase<TParams>;
/**
 * Parameterized Problem errors: `DataclassHTTPError.define(ParamsStruct, { type, title, status, detailTemplate })`.
 */
export const DataclassHTTPError: typeof DataclassHTTPErrorBase & {
  define: typeof DataclassHTTPErrorBase.defineParameterized;
} = Object.assign(DataclassHTTPErrorBase, {
  define: DataclassHTTPErrorBase.defineParameterized.bind(DataclassHTTPErrorBase),
});

/** Class options of a `StructHTTPError`. */
export interface StructHTTPErrorOptions<TBody extends v.ObjectEntries> {
  readonly status: number;
  /** The OpenAPI response description. */
  readonly description?: string;
  /** Field → pinned value. */
  readonly consts?: { readonly [K in keyof TBody]?: v.InferOutput<TBody[K]> };
  /** Field → `{param}` template rendered at raise time (`{{`/`}}` escape braces). */
  readonly templates?: { readonly [K in keyof TBody]?: string };
  /** An int field of `B` fed the class status. */
  readonly statusField?: keyof TBody & string;
  /** A Struct-typed field into which the raw params nest. */
  readonly paramsField?: keyof TBody & string;
  /** Extra raise-time params used by templates (beyond same-named body fields). */
  readonly params?: v.ObjectSchema<v.ObjectEntries, undefined>;
}

/** A `StructHTTPError` class produced by `StructHTTPError.define`. */
export interface StructHTTPErrorClass<TBody extends v.ObjectEntries, TParams> {
  new (params: TParams): StructHTTPError<v.InferOutput<v.ObjectSchema<TBody, undefined>>>;
  readonly status: number;
  readonly bodySchema: v.ObjectSchema<TBody, undefined>;
  readonly description: string | undefined;
  readonly consts: Readonly<Record<string, unknown>>;
  readonly statusField: string | undefined;
}

type RaiseParams<TBody extends v.ObjectEntries, TOptions> = TOptions extends {
  params: v.ObjectSchema<infer P, undefined>;
}
  ? v.InferInput<v.ObjectSchema<P, undefined>> & RaiseFields<TBody, TOptions>
  : RaiseFields<TBody, TOptions>;
type Fed<TOptions> =
  | (TOptions extends { consts: infer C } ? keyof C : never)
  | (TOptions extends { templates: infer T } ? keyof T : never)
  | (TOptions extends { statusField: infer S } ? S : never)
  | (TOptions extends { paramsField: infer S } ? S : never);
type RaiseFields<TBody extends v.ObjectEntries, TOptions> = Omit<
  v.InferInput<v.ObjectSchema<TBody, undefined>>,
  Fed<TOptions> & string
>;

/**
 * An error rendered as your own body Struct `B` (for backporting an existing error format).
 * Every field of `B` has exactly one source; violations fail at definition.
 *
 * @example
 * const LegacyBody = Struct('LegacyBody', { code: v.string(), message: v.string(), httpStatus: v.number() });
 * class LegacyNotFound extends StructHTTPError.define(LegacyBody, {
 *   status: 404, consts: { code: 'E404' }, templates: { message: 'No {thing}' }, statusField: 'httpStatus',
 *   params: v.object({ thing: v.string() }),
 * }) {}
 * throw new LegacyNotFound({ thing: 'widget' });
 */
export abstract class StructHTTPError<TBody = unknown> extends BaseHTTPError {
  static readonly bodySchema: v.ObjectSchema<v.ObjectEntries, undefined>;
  static readonly description: string | undefined;
  static readonly consts: Readonly<Record<string, unknown>> = {};
  static readonly templates: Readonly<Record<string, string>> = {};
  static readonly statusField: string | undefined;
  static readonly paramsField: string | undefined;
  readonly #params: Record<string, unknown>;

  constructor(params: object) {
    super();
    this.#params = { ...params };
    this.message = `${this.constructor.name} (${this.status})`;
  }

  /** The occurrence as type `B`, composed fresh (nothing passed in is mutated). */
  get body(): TBody {
    const cls = this.constructor as typeof StructHTTPError;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(cls.bodySchema.entries)) {
      if (key in cls.consts) out[key] = cls.consts[key];
      else if (key in cls.templates) out[key] = renderTemplate(cls.templates[key]!, this.#params);
      else if (key === cls.statusField) out[key] = this.status;
      else if (key === cls.paramsField) out[key] = { ...this.#params };
      else out[key] = this.#params[key];
    }
    return out as TBody;
  }

  /** The wire body as JSON text. */
  get responseBody(): string {
    const cls = this.constructor as typeof StructHTTPError & { [kParamsSerializer]?: Serializer };
    let ser = Object.hasOwn(cls, kParamsSerializer) ? cls[kParamsSerializer] : undefined;
    if (!ser) {
      ser = compileSerializer(cls.bodySchema);
      Object.defineProperty(cls, kParamsSerializer, { value: ser });
    }
    return ser(this.body);
  }

  render(): RenderedError {
    return { status: this.status, contentType: 'application/json', body: this.responseBody };
  }

  /** Declares a `StructHTTPError` class; every rule of the spec is checked here. */
  static define<const TBody extends v.ObjectEntries, const TOptions extends StructHTTPErrorOptions<TBody>>(
    bodySchema: v.ObjectSchema<TBody, undefined>,
    options: TOptions,
  ): StructHTTPErrorClass<TBody, RaiseParams<TBody, TOptions>> {
    const where = `StructHTTPError.define(${(bodySchema as unknown as { [k: symbol]: { name?: string } })[Symbol.for('@api/core.struct')]?.name ?? 'body'})`;
    if (
      !bodySchema ||
      typeof bodySchema !== 'object' ||
      bodySchema.type !== 'object' ||
      !bodySchema.entries
    ) {
      throw new TypeError(
        `${where}: B must be a concrete Struct (an object schema). Fix: pass a Struct, not a generic or a non-object schema.`,
      );
    }
    checkStatus(where, options.status);
    const entries = bodySchema.entries as unknown as Record<string, SchemaNode>;
    const fed = new Map<string, string>();
    const feed = (field: string, source: string): void => {
      if (!(field in entries))
        throw new WiringError(
          `${where}: ${source} names unknown field "${field}". Fix: use a field of the body Struct.`,
        );
      const prior = fed.get(field);
      if (prior)
        throw new WiringError(
          `${where}: field "${field}" is fed twice (${prior} and ${source}). Fix: give each field exactly one source.`,
        );
      fed.set(field, source);
    };
    for (const field of Object.keys(options.consts ?? {})) feed(field, 'consts');
    for (const [field, template] of Object.entries(options.templates ?? {}) as [string, string][]) {
      feed(field, 'templates');
      if (unwrap(entries[field]!).type !== 'string')
        throw new WiringError(
          `${where}: template on non-string field "${field}". Fix: templates render strings; use consts or a param for "${field}".`,
        );
      templateFields(where, template);
    }
    if (options.statusField !== undefined) {
      feed(options.statusField, 'statusField');
      const s = unwrap(entries[options.statusField]!);
      const isInt = s.type === 'number' && (s.pipe ?? []).some((a) => a.type === 'integer');
      if (!isInt)
        throw new WiringError(
          `${where}: statusField "${options.statusField}" is not an int field. Fix: declare it v.pipe(v.number(), v.integer()).`,
        );
    }
    if (options.paramsField !== undefined) {
      feed(options.paramsField, 'paramsField');
      if (!objectEntries(entries[options.paramsField]!))
        throw new WiringError(
          `${where}: paramsField "${options.paramsField}" is not a Struct-typed field. Fix: declare it as a Struct.`,
        );
    }
    abstract class Defined extends StructHTTPError<v.InferOutput<v.ObjectSchema<TBody, undefined>>> {
      static override readonly status = options.status;
      static override readonly bodySchema = bodySchema as unknown as v.ObjectSchema<
        v.ObjectEntries,
        undefined
      >;
      static override readonly description = options.description;
      static override readonly consts = { ...(options.consts ?? {}) } as Record<string, unknown>;
      static override readonly templates = { ...(options.templates ?? {}) } as Record<string, string>;
      static override readonly statusField = options.statusField;
      static override readonly paramsField = options.paramsField;
    }
    return Defined as unknown as StructHTTPErrorClass<TBody, RaiseParams<TBody, TOptions>>;
  }
}

/** The params of the 400 and 422 errors. */
export const ErrorReason = Struct('ErrorReason', {
  reason: v.string(),
  issues: v.array(Struct('ErrorReasonIssue', { path: v.string(), message: v.string() })),
});

/** 400: the request cannot be parsed or bound. */
export class MalformedRequestError extends DataclassHTTPError.define(ErrorReason, {
  type: 'malformed-request',
  title: 'Malformed request',
  status: 400,
  detailTemplate: '{reason}',
}) {}
/** 401: credentials absent or invalid. */
export class AuthenticationRequiredError extends HTTPError.define({
  type: 'authentication-required',
  title: 'Authentication required',
  status: 401,
}) {}
/** 403: authenticated but not allowed. */
export class ForbiddenError extends HTTPError.define({
  type: 'forbidden',
  title: 'The caller is authenticated but not allowed to perform this operation',
  status: 403,
}) {}
/** 404: no route or resource matches; also an unconvertible path value. */
export class NotFoundError extends HTTPError.define({ type: 'not-found', title: 'Not found', status: 404 }) {}
/** 405: the path exists but not with this method. */
export class MethodNotAllowedError extends HTTPError.define({
  type: 'method-not-allowed',
  title: 'Method not allowed',
  status: 405,
}) {}
/** 409: conflicts with the current resource state. */
export class ConflictError extends HTTPError.define({
  type: 'conflict',
  title: 'The request conflicts with the current state of the resource',
  status: 409,
}) {}
/** 410: the resource existed but has been permanently removed. */
export class GoneError extends HTTPError.define({
  type: 'gone',
  title: 'The resource existed but has been permanently removed',
  status: 410,
}) {}
/** 413: the body is over the configured limit. */
export class PayloadTooLargeError extends HTTPError.define({
  type: 'payload-too-large',
  title: 'Payload too large',
  status: 413,
}) {}
/** 415: the body lacks the required media type. */
export class UnsupportedMediaTypeError extends HTTPError.define({
  type: 'unsupported-media-type',
  title: 'Unsupported media type',
  status: 415,
}) {}
/** 422: well-formed request that violates its typed contract. */
export class ValidationFailedError extends DataclassHTTPError.define(ErrorReason, {
  type: 'validation-failed',
  title: 'Validation failed',
  status: 422,
  detailTemplate: '{reason}',
}) {}
/** 429: rate limit exceeded (raised by application code). */
export class TooManyRequestsError extends HTTPError.define({
  type: 'too-many-requests',
  title: 'The caller has exceeded a rate limit',
  status: 429,
}) {}
/** 431: too many request headers. */
export class RequestHeaderFieldsTooLargeError extends HTTPError.define({
  type: 'request-header-fields-too-large',
  title: 'Request header fields too large',
  status: 431,
}) {}
/** 408: the request was not received in time. */
export class RequestTimeoutError extends HTTPError.define({
  type: 'request-timeout',
  title: 'Request timeout',
  status: 408,
}) {}
/** 500: any uncaught exception; server internals never leak. */
export class InternalServerError extends HTTPError.define({
  type: 'internal-server-error',
  title: 'Internal server error',
  status: 500,
}) {}
/** 503: the server is shutting down. */
export class ServiceUnavailableError extends HTTPError.define({
  type: 'service-unavailable',
  title: 'Service unavailable',
  status: 503,
}) {}

/** Prepares an adapter at wiring: its serializer compiled once, its failures contained. */
export function compileAdapter(
  adapter: ErrorBodyAdapter,
  log: (message: string, error: unknown) => void,
): CompiledAdapter {
  const where = 'includeErrorAdapter';
  const entries = objectEntries(adapter.schema);
  if (adapter.statusField !== undefined && entries && adapter.statusField in entries) {
    throw new WiringError(
      `${where}: statusField "${adapter.statusField}" already exists on the adapter's body schema. Fix: the framework adds it; remove it from the schema or pick another name.`,
    );
  }
  const serialize = compileSerializer(adapter.schema);
  const statusKey = adapter.statusField === undefined ? undefined : JSON.stringify(adapter.statusField);
  return {
    render(error) {
      try {
        const body = adapter.compose(error);
        let text = serialize(body);
        if (statusKey !== undefined)
          text =
            text === '{}'
              ? `{${statusKey}:${error.status}}`
              : `${text.slice(0, -1)},${statusKey}:${error.status}}`;
        return { status: error.status, contentType: 'application/json', body: text };
      } catch (failure) {
        log(`error adapter failed for ${error.type}; sending the Problem body`, failure);
        return undefined;
      }
    },
  };
}
