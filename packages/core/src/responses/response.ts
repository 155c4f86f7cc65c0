import type * as v from 'valibot';
import type { SetCookie } from '../cookies/set-cookie';
import { describeValue, wiringError } from '../contract/wiring-error';
import { kResponseKind } from '../contract/symbols';
import { spec, type ResponseKindFacts, type ResponseSpec } from '../contract/response-spec';

export { spec, type ResponseKindFacts, type ResponseSpec } from '../contract/response-spec';
import { checkFields, checkOf, NO_SCHEMA } from './checks';
import type { Link, Location } from './location';
import type { TypeErrorMessage, WiringTypeError } from '../contract/type-errors';

/** Raw response headers: as-written names, repeats allowed. */
export type RawHeaders =
  | Readonly<Record<string, string | readonly string[]>>
  | ReadonlyArray<readonly [string, string]>;

/** Fields every buffered response wrapper carries. */
export interface ResponseFields<THeaders> {
  readonly statusCode?: number;
  readonly headers?: THeaders;
  readonly rawHeaders?: RawHeaders;
  readonly cookies?: readonly SetCookie[];
  readonly location?: Location;
  readonly links?: Link | readonly Link[];
}

/** `headers` is required exactly when the declaration has a headers schema. */
export type HeadersArg<THeaders> = [THeaders] extends [undefined]
  ? { readonly headers?: undefined }
  : { readonly headers: THeaders };

/**
 * Base of the response wrappers: the fields every wrapper carries, checked once on construction
 * (core's buffered wrappers; `@api/core/extension` exports it for extension kinds such as streams).
 */
export abstract class BufferedResponse<THeaders> {
  readonly statusCode: number | undefined;
  readonly headers: THeaders | undefined;
  readonly rawHeaders: RawHeaders | undefined;
  readonly cookies: readonly SetCookie[] | undefined;
  readonly location: Location | undefined;
  readonly links: Link | readonly Link[] | undefined;
  constructor(init: ResponseFields<THeaders>) {
    checkFields(new.target.name, init);
    this.statusCode = init.statusCode;
    this.headers = init.headers;
    this.rawHeaders = init.rawHeaders;
    this.cookies = init.cookies;
    this.location = init.location;
    this.links = init.links;
  }
}

/** The typed headers a response carries for its declared headers schema (`undefined`: none). */
export type HeadersOf<THeaders> = THeaders extends v.GenericSchema ? v.InferOutput<THeaders> : undefined;
/** A typed response-headers schema, as `JSONResponse.of(schema, { headers })` takes it. */
export type HeaderSchema = v.ObjectSchema<v.ObjectEntries, undefined>;

/** The constructor argument of a JSON wrapper; `statusCode` only where the status is not forced. */
type JsonInit<T, THeaders, TForced extends boolean> = { readonly json: T } & (TForced extends true
  ? Omit<ResponseFields<THeaders>, 'statusCode'>
  : ResponseFields<THeaders>) &
  HeadersArg<THeaders>;

/** The shared shape of the JSON wrappers: siblings, each with its own class (and its own type). */
abstract class JsonBody<T, THeaders, TForced extends boolean> extends BufferedResponse<THeaders> {
  readonly json: T;
  constructor(init: JsonInit<T, THeaders, TForced>) {
    super(init);
    if (!('json' in init))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `new ${new.target.name}`,
        'the "json" field is missing',
        `new ${new.target.name}({ json: value })`,
      );
    this.json = init.json;
  }
}

/** Declares a JSON wrapper response of `schema` (what each wrapper's `of` returns). */
function jsonSpec<TValue>(
  cls: abstract new (...args: never[]) => object,
  status: number | undefined,
  schema: v.GenericSchema,
  headers: HeaderSchema | undefined,
): ResponseSpec<TValue> {
  return spec({ kind: 'json', cls, schema, headers, status, contentType: 'application/json' });
}

/** `of(schema, { headers })` options of the JSON wrappers. */
export interface JsonOfOptions<THeaders extends HeaderSchema | undefined> {
  readonly headers?: THeaders;
}

/**
 * A JSON response with a status, typed headers, cookies, Location and Link.
 *
 * @example
 * returns: JSONResponse.of(Widget)
 * return new JSONResponse({ json: widget, statusCode: 201, location: Location.fromPath(`/widgets/${widget.id}`) });
 */
export class JSONResponse<T, THeaders = undefined> extends JsonBody<T, THeaders, false> {
  /** Nominal: a `Created` is not a `JSONResponse` (returning one where the other is declared is a type error). */
  declare protected readonly wrapper: 'JSONResponse';
  /** Declares a JSON response of `schema`, with optional typed headers. */
  static of<TSchema extends v.GenericSchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: JsonOfOptions<THeaders> = {},
  ): ResponseSpec<JSONResponse<v.InferOutput<TSchema>, HeadersOf<THeaders>>> {
    checkOf('JSONResponse.of', schema, options, ['headers']);
    return jsonSpec(JSONResponse, undefined, schema, options.headers);
  }
}

/** A JSON response forced to 201 (a sibling of `JSONResponse`, not a subclass). */
export class Created<T, THeaders = undefined> extends JsonBody<T, THeaders, true> {
  declare protected readonly wrapper: 'Created';
  /** Declares a 201 JSON response of `schema`, with optional typed headers. */
  static of<TSchema extends v.GenericSchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: JsonOfOptions<THeaders> = {},
  ): ResponseSpec<Created<v.InferOutput<TSchema>, HeadersOf<THeaders>>> {
    checkOf('Created.of', schema, options, ['headers']);
    return jsonSpec(Created, 201, schema, options.headers);
  }
}

/** A JSON response forced to 202 (a sibling of `JSONResponse`, not a subclass). */
export class Accepted<T, THeaders = undefined> extends JsonBody<T, THeaders, true> {
  declare protected readonly wrapper: 'Accepted';
  /** Declares a 202 JSON response of `schema`, with optional typed headers. */
  static of<TSchema extends v.GenericSchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: JsonOfOptions<THeaders> = {},
  ): ResponseSpec<Accepted<v.InferOutput<TSchema>, HeadersOf<THeaders>>> {
    checkOf('Accepted.of', schema, options, ['headers']);
    return jsonSpec(Accepted, 202, schema, options.headers);
  }
}

/**
 * No body. At 204 it sends neither `content-type` nor `content-length`; at another status the
 * body is still empty and `content-length: 0` frames it.
 */
export class NoContent<THeaders = undefined> extends BufferedResponse<THeaders> {
  constructor(init: ResponseFields<THeaders> & Partial<HeadersArg<THeaders>> = {}) {
    super(init);
  }
  static of<THeaders extends HeaderSchema | undefined = undefined>(
    options: { headers?: THeaders } = {},
  ): ResponseSpec<NoContent<HeadersOf<THeaders>>> {
    checkOf('NoContent.of', NO_SCHEMA, options, ['headers']);
    return spec({
      kind: 'empty',
      cls: NoContent,
      schema: undefined,
      headers: options.headers,
      status: undefined,
      contentType: undefined,
    });
  }
}

/** Raw bytes, `application/octet-stream` unless `contentType` says otherwise. */
export class BytesResponse<THeaders = undefined> extends BufferedResponse<THeaders> {
  readonly content: Uint8Array;
  readonly contentType: string | undefined;
  constructor(
    init: { readonly content: Uint8Array; readonly contentType?: string } & ResponseFields<THeaders> &
      HeadersArg<THeaders>,
  ) {
    super(init);
    if (!(init.content instanceof Uint8Array))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        'new BytesResponse',
        `content must be a Uint8Array (or Buffer), got ${describeValue(init.content)}`,
        'content: Buffer.from(text) or new Uint8Array(bytes)',
      );
    if (init.contentType !== undefined && typeof init.contentType !== 'string')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        'new BytesResponse',
        `contentType must be a media type string, got ${describeValue(init.contentType)}`,
        "e.g. contentType: 'image/png'",
      );
    this.content = init.content;
    this.contentType = init.contentType;
  }
  static of<THeaders extends HeaderSchema | undefined = undefined>(
    options: { headers?: THeaders; contentType?: string } = {},
  ): ResponseSpec<BytesResponse<HeadersOf<THeaders>>> {
    checkOf('BytesResponse.of', NO_SCHEMA, options, ['headers', 'contentType']);
    return spec({
      kind: 'bytes',
      cls: BytesResponse,
      schema: undefined,
      headers: options.headers,
      status: undefined,
      contentType: options.contentType ?? 'application/octet-stream',
    });
  }
}

/** Plain `text/plain; charset=utf-8` return of a handler declared `returns: Text`. */
export const Text: ResponseSpec<string> = spec({
  kind: 'text',
  cls: undefined,
  schema: undefined,
  headers: undefined,
  status: undefined,
  contentType: 'text/plain; charset=utf-8',
});
/** Plain `application/octet-stream` return of a handler declared `returns: Bytes`. */
export const Bytes: ResponseSpec<Uint8Array> = spec({
  kind: 'bytes',
  cls: undefined,
  schema: undefined,
  headers: undefined,
  status: undefined,
  contentType: 'application/octet-stream',
});

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
/** The error statuses as literal types: `400` … `599`. */
export type ErrorStatus = `${4 | 5}${Digit}${Digit}` extends `${infer N extends number}` ? N : never;
/** `unknown` for a computed status (checked at construction) or a literal in 400–599; an error otherwise. */
type ErrorStatusCheck<TStatus extends number> = number extends TStatus
  ? unknown
  : TStatus extends ErrorStatus
    ? unknown
    : WiringTypeError<
        TypeErrorMessage<
          `${TStatus} is not an error status, and an exception handler answers with one (400-599)`,
          'use an error status, e.g. 409 or 503'
        >
      >;

/**
 * What an exception handler returns to replace an exception. `statusCode` is required, 400–599.
 *
 * @example
 * return new ExceptionResponse({ statusCode: 409, json: { type: 'conflict', title: 'Duplicate', status: 409 } });
 */
export class ExceptionResponse<const TBody, THeaders = undefined, const TStatus extends number = number> {
  readonly statusCode: TStatus;
  readonly json: TBody;
  readonly headers: THeaders | undefined;
  readonly cookies: readonly SetCookie[] | undefined;
  constructor(init: {
    /** 400–599: a literal outside is a type error; a computed one is checked here. */
    readonly statusCode: TStatus & ErrorStatusCheck<TStatus>;
    readonly json: TBody;
    readonly headers?: THeaders;
    readonly cookies?: readonly SetCookie[];
  }) {
    if (typeof init !== 'object' || init === null)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        'new ExceptionResponse(init)',
        `expected { statusCode, json, headers?, cookies? }, got ${describeValue(init)}`,
        'new ExceptionResponse({ statusCode: 409, json: body })',
      );
    const status = init.statusCode;
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) {
      throw typeof status === 'number'
        ? wiringError(
            'API_WIRING_STATUS',
            'ExceptionResponse',
            `statusCode ${status} is outside 400–599`,
            'an exception handler answers with an error status',
          )
        : wiringError(
            'API_WIRING_INVALID_ARGUMENT',
            'ExceptionResponse',
            `statusCode must be an integer from 400 to 599, got ${describeValue(status)}`,
            'e.g. statusCode: 409',
          );
    }
    if (init.cookies !== undefined || init.headers !== undefined)
      checkFields('ExceptionResponse', { cookies: init.cookies, headers: init.headers });
    this.statusCode = init.statusCode;
    this.json = init.json;
    this.headers = init.headers;
    this.cookies = init.cookies;
  }
  /**
   * Declares an exception handler's response of `schema`, with optional typed headers; `status`
   * pins the error status this body is sent with (any 400–599 when left out).
   *
   * @example
   * returns: [ExceptionResponse.of(QueueFullProblem, { status: 503, headers: RetryAfter })]
   */
  static of<
    TSchema extends v.GenericSchema,
    THeaders extends HeaderSchema | undefined = undefined,
    const TStatus extends number = number,
  >(
    schema: TSchema,
    options: {
      readonly headers?: THeaders;
      /** 400–599: a literal outside is a type error; a computed one is checked here. */
      readonly status?: TStatus & ErrorStatusCheck<TStatus>;
    } = {},
  ): ResponseSpec<ExceptionResponse<v.InferOutput<TSchema>, HeadersOf<THeaders>, TStatus>> {
    checkOf('ExceptionResponse.of', schema, options, ['headers', 'status']);
    const status = options.status;
    if (status !== undefined && (!Number.isInteger(status) || status < 400 || status > 599))
      throw wiringError(
        'API_WIRING_STATUS',
        'ExceptionResponse.of',
        `status ${String(status)} is outside 400–599`,
        'pin an error status (e.g. status: 503), or leave status out',
      );
    return spec({
      kind: 'json',
      cls: ExceptionResponse,
      schema,
      headers: options.headers,
      status,
      contentType: 'application/json',
    });
  }
}

/** Declares a plain JSON value of `schema` (what a bare schema in `returns:` means). */
export function plainJson<TSchema extends v.GenericSchema>(
  schema: TSchema,
): ResponseSpec<v.InferOutput<TSchema>> {
  return spec({
    kind: 'json',
    cls: undefined,
    schema,
    headers: undefined,
    status: undefined,
    contentType: 'application/json',
  });
}

/** The run-time info of a `returns:` entry (a spec or a bare schema). */
export function responseFacts(entry: unknown): ResponseKindFacts | undefined {
  if (entry && typeof entry === 'object' && kResponseKind in entry)
    return (entry as ResponseSpec)[kResponseKind];
  return undefined;
}
