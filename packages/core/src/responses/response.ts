import type {
  AnySchema,
  SchemaOutput,
  SchemaReturn,
  StandardObjectSchema,
} from '../contract/standard-schema';
import type * as v from 'valibot';
import { SetCookie } from '../cookies/set-cookie';
import { describeValue, wiringError } from '../contract/wiring-error';
import { kResponseKind } from '../contract/symbols';
import { spec, type ResponseKindFacts, type ResponseSpec } from '../contract/response-spec';

export { spec, type ResponseKindFacts, type ResponseSpec } from '../contract/response-spec';
import { checkOf, NO_SCHEMA } from './checks';
import { Link, Location } from './location';

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
export type HeadersOf<THeaders> = THeaders extends AnySchema ? SchemaOutput<THeaders> : undefined;
/** A typed response-headers schema, as `JSONResponse.of(schema, { headers })` takes it. */
export type HeaderSchema = v.ObjectSchema<v.ObjectEntries, undefined> | StandardObjectSchema;

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
  schema: AnySchema,
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
  static of<TSchema extends AnySchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: JsonOfOptions<THeaders> = {},
  ): ResponseSpec<JSONResponse<SchemaReturn<TSchema>, HeadersOf<THeaders>>> {
    checkOf('JSONResponse.of', schema, options, ['headers']);
    return jsonSpec(JSONResponse, undefined, schema, options.headers);
  }
}

/** A JSON response forced to 201 (a sibling of `JSONResponse`, not a subclass). */
export class Created<T, THeaders = undefined> extends JsonBody<T, THeaders, true> {
  declare protected readonly wrapper: 'Created';
  /** Declares a 201 JSON response of `schema`, with optional typed headers. */
  static of<TSchema extends AnySchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: JsonOfOptions<THeaders> = {},
  ): ResponseSpec<Created<SchemaReturn<TSchema>, HeadersOf<THeaders>>> {
    checkOf('Created.of', schema, options, ['headers']);
    return jsonSpec(Created, 201, schema, options.headers);
  }
}

/** A JSON response forced to 202 (a sibling of `JSONResponse`, not a subclass). */
export class Accepted<T, THeaders = undefined> extends JsonBody<T, THeaders, true> {
  declare protected readonly wrapper: 'Accepted';
  /** Declares a 202 JSON response of `schema`, with optional typed headers. */
  static of<TSchema extends AnySchema, THeaders extends HeaderSchema | undefined = undefined>(
    schema: TSchema,
    options: JsonOfOptions<THeaders> = {},
  ): ResponseSpec<Accepted<SchemaReturn<TSchema>, HeadersOf<THeaders>>> {
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

/** Declares a plain JSON value of `schema` (what a bare schema in `returns:` means). */
export function plainJson<TSchema extends AnySchema>(schema: TSchema): ResponseSpec<SchemaReturn<TSchema>> {
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

/**
 * The per-request checks of a wrapper's fields: only typeof/instanceof tests, so a wrong argument
 * is a `WiringError` naming the wrapper and the field instead of a bare `TypeError` (or a broken
 * response) when the response is written.
 */
export function checkFields(wrapper: string, init: unknown): void {
  if (typeof init !== 'object' || init === null) badInit(wrapper, init);
  const f = init as Fields;
  const status = f.statusCode;
  if (
    status !== undefined &&
    !(typeof status === 'number' && status >= 200 && status <= 599 && status % 1 === 0)
  )
    badStatus(wrapper, status);
  // The common response sets none of these: one combined test, the rest only when one is set.
  if (
    f.cookies !== undefined ||
    f.location !== undefined ||
    f.links !== undefined ||
    f.rawHeaders !== undefined ||
    f.headers !== undefined
  )
    checkExtras(wrapper, f);
}

// Cold paths out of line, so the check itself stays small enough to inline.
function badInit(wrapper: string, init: unknown): never {
  throw wiringError(
    'API_WIRING_INVALID_ARGUMENT',
    `new ${wrapper}(init)`,
    `expected an object of response fields, got ${describeValue(init)}`,
    `e.g. new ${wrapper}({ json: value })`,
  );
}

function badStatus(wrapper: string, status: unknown): never {
  throw wiringError(
    'API_WIRING_STATUS',
    `new ${wrapper}`,
    'statusCode must be an integer from 200 to 599, ' +
      `got ${typeof status === 'number' ? status : describeValue(status)}`,
    "e.g. statusCode: 201, or leave it out for the operation's default",
  );
}

interface Fields {
  readonly statusCode?: unknown;
  readonly cookies?: unknown;
  readonly location?: unknown;
  readonly links?: unknown;
  readonly rawHeaders?: unknown;
  readonly headers?: unknown;
}

function checkExtras(wrapper: string, f: Fields): void {
  const cookies = f.cookies;
  if (cookies !== undefined) {
    if (!Array.isArray(cookies))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `new ${wrapper}`,
        `cookies must be an array of SetCookie, got ${describeValue(cookies)}`,
        "cookies: [new SetCookie('name', 'value')]",
      );
    for (const cookie of cookies as unknown[])
      if (!(cookie instanceof SetCookie))
        throw wiringError(
          'API_WIRING_INVALID_ARGUMENT',
          `new ${wrapper}`,
          `cookies holds ${describeValue(cookie)}, not a SetCookie`,
          "cookies: [new SetCookie('name', 'value')]",
        );
  }
  if (f.location !== undefined && !(f.location instanceof Location))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `new ${wrapper}`,
      `location must be a Location, got ${describeValue(f.location)}`,
      "location: Location.fromPath('/widgets/1') (or fromOperation, fromRef, fromUrl)",
    );
  const links = f.links;
  if (links !== undefined && !(links instanceof Link)) {
    if (!Array.isArray(links) || !links.every((l) => l instanceof Link))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `new ${wrapper}`,
        `links must be a Link or an array of Link, got ${describeValue(links)}`,
        "links: [Link.fromRef('widgets.readMany', { rel: 'collection' })]",
      );
  }
  const raw = f.rawHeaders;
  if (raw !== undefined && (typeof raw !== 'object' || raw === null))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `new ${wrapper}`,
      'rawHeaders must be an object of name → value(s) or an ' +
        `array of [name, value] pairs, got ${describeValue(raw)}`,
      "rawHeaders: { 'x-kept': 'yes' }",
    );
  if (f.headers !== undefined && (typeof f.headers !== 'object' || f.headers === null))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `new ${wrapper}`,
      `headers must be an object of typed header values, got ${describeValue(f.headers)}`,
      "headers: { xTraceId: '…' }",
    );
}
