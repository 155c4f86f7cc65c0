import * as v from 'valibot';
import { parseCookieHeader } from '../cookies/set-cookie';
import { MalformedRequestError, UnsupportedMediaTypeError, ValidationFailedError } from '../errors';
import { describeValue, isSchema, wiringError } from '../contract/wiring-error';
import type { Exchange, RequestHead } from '../contract/exchange';
import type { Logger } from '../logging/logger';
import { parseQuery } from '../http';
import { toHeaderName } from '../http';
import type { Limits } from '../contract/limits';
import { fieldCoercion, type FieldCoercion } from '../schema/coerce';
import { objectEntries } from '../schema/introspect';
import { toErrorReason, type SourceLabel } from '../schema/issues';
import { compileFastValidator, FAIL } from '../schema/fast-validate';
import { compileExplainer } from '../schema/explain';
import { discriminatorOf } from '../schema/tagged-union';
import { compileUnsafeIntegerFinder, unsafeIntegerIssue } from '../schema/safe-integers';
import { arrayAsObjectIssue, compileArrayAsObjectFinder } from '../schema/array-as-object';
import {
  BodyRead,
  bodyTooLarge,
  connectionClosedMidBody,
  declaresTooMuch,
  isJsonMediaType,
  isPlainUtf8Body,
  parseJsonText,
  type Uploads,
} from './body';
import { RawHeadersView } from './raw-headers';
import { isStandardSchema } from '../schema/standard';
import type { AnySchema, StandardSchemaV1 } from '../contract/standard-schema';
import {
  mapMaybeAsync,
  standardCookiesBinder,
  standardHeadersBinder,
  standardJsonDecoder,
  standardQueryBinder,
} from './standard-binders';
import { Later } from './body';

/** A compiled binder: sync for strings, a promise for bodies. */
export type Binder = (ex: BindingExchange) => unknown;

interface Field {
  readonly key: string;
  readonly wire: string;
  readonly coercion: FieldCoercion;
}

export type Validate = (input: unknown) => v.SafeParseResult<v.GenericSchema>;

export function validator(schema: v.GenericSchema): Validate {
  if (!isSchema(schema))
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      'compileValidator(schema)',
      `expected a valibot schema, got ${describeValue(schema)}`,
      'pass a Struct or a v.* schema',
    );
  const config = v.getGlobalConfig({ abortEarly: false });
  const fast = compileFastValidator(schema);
  // A union of tagged Structs is checked as the equivalent variant: it accepts the same values,
  // and its issues name the member's field ("$.name") instead of "Expected Object at $".
  const explained = discriminatorOf(schema)?.variant ?? schema;
  // A schema's integer is a safe integer unless it says otherwise: past 2^53 is refused, never stored.
  const unsafe = compileUnsafeIntegerFinder(schema);
  // An array is not an object or a record (valibot reads `["x"]` as `{ "0": "x" }`): refused too.
  const arrays = compileArrayAsObjectFinder(schema);
  const slow: Validate =
    unsafe === undefined && arrays === undefined
      ? (input) => v.safeParse(explained, input, config)
      : (input) => {
          const result = v.safeParse(explained, input, config);
          if (!result.success) return result;
          const array = arrays?.(input);
          if (array !== undefined)
            return refused(input, arrayAsObjectIssue(array, array.length ? array.at(-1)!.value : input));
          const path = unsafe?.(result.output);
          return path === undefined ? result : refused(input, unsafeIntegerIssue(path));
        };
  if (!fast) return slow;
  // The failure side, compiled too: the issues valibot would report, found without running it
  // (valibot's per-issue text, which core never sends, is most of a 422's cost). Off when a global
  // config stops pipes early (valibot's issues would differ); it leaves anything unsure to valibot.
  const explain = config.abortPipeEarly ? undefined : compileExplainer(schema);
  // The compiled check decides valid input; anything it refuses is explained (or goes to valibot).
  return (input) => {
    const output = fast(input);
    if (output !== FAIL) return { typed: true, success: true, output, issues: undefined };
    const issues = explain?.(input);
    if (issues !== undefined) return { typed: false, success: false, output: input, issues } as never;
    return slow(input);
  };
}

/** A failed result with one issue core found after valibot accepted the value. */
function refused(input: unknown, issue: v.BaseIssue<unknown>): v.SafeParseResult<v.GenericSchema> {
  return { typed: false, success: false, output: input, issues: [issue] } as never;
}

function fieldsOf(schema: v.GenericSchema, wireName: (key: string) => string): Field[] {
  const entries = objectEntries(schema) ?? {};
  return Object.entries(entries).map(([key, field]) => ({
    key,
    wire: wireName(key),
    coercion: fieldCoercion(field),
  }));
}

function badRequest(source: SourceLabel, issues: readonly v.BaseIssue<unknown>[]): MalformedRequestError {
  return new MalformedRequestError(toErrorReason(source, issues));
}

/** Binds the query string (400 when invalid); the last repeat wins unless the field is an array. */
export function queryBinder(schema: AnySchema): Binder {
  if (isStandardSchema(schema)) return standardQueryBinder(schema);
  const fields = fieldsOf(schema as v.GenericSchema, (k) => k);
  const validate = validator(schema as v.GenericSchema);
  return (ex) => {
    const raw = ex.query.length === 0 ? undefined : parseQuery(ex.query);
    const input: Record<string, unknown> = {};
    if (raw) {
      for (const f of fields) {
        const values = raw.get(f.wire);
        if (values === undefined || values.length === 0) continue;
        input[f.key] = f.coercion.many
          ? values.map(f.coercion.coerce)
          : f.coercion.coerce(values[values.length - 1]!);
      }
    }
    const result = validate(input);
    if (!result.success) throw badRequest('query', result.issues);
    return result.output;
  };
}

/** Binds request headers into a schema: `x_trace_id` / `xTraceId` read `x-trace-id`. */
export function headersBinder(
  schema: AnySchema,
  onError: (issues: readonly v.BaseIssue<unknown>[]) => Error = (issues) => badRequest('header', issues),
  onStandardIssues?: (
    issues: readonly StandardSchemaV1.Issue[],
    input: unknown,
    rename: ReadonlyMap<string, string>,
  ) => Error,
): (req: RequestHead) => unknown {
  if (isStandardSchema(schema)) return standardHeadersBinder(schema, onStandardIssues);
  const fields = fieldsOf(schema as v.GenericSchema, toHeaderName);
  const validate = validator(schema as v.GenericSchema);
  return (req) => {
    const input: Record<string, unknown> = {};
    const headers = req.headers;
    for (const f of fields) {
      if (f.coercion.many) {
        const list = req.headersDistinct[f.wire];
        if (list !== undefined) input[f.key] = list.map(f.coercion.coerce);
        continue;
      }
      const value = headers[f.wire];
      if (value === undefined) continue;
      input[f.key] = f.coercion.coerce(Array.isArray(value) ? value.join(', ') : value);
    }
    const result = validate(input);
    if (!result.success) {
      // Report issues with wire header names, not field keys.
      const byKey = new Map(fields.map((f) => [f.key, f.wire]));
      throw onError(result.issues.map((i) => renameFirstPathKey(i, byKey)));
    }
    return result.output;
  };
}

function renameFirstPathKey(issue: v.BaseIssue<unknown>, names: Map<string, string>): v.BaseIssue<unknown> {
  const first = issue.path?.[0];
  if (!first || typeof first.key !== 'string' || !names.has(first.key)) return issue;
  const path = [
    { ...first, key: names.get(first.key)! },
    ...issue.path.slice(1),
  ] as unknown as typeof issue.path;
  return { ...issue, path };
}

/** Binds cookies by verbatim, case-sensitive name. */
export function cookiesBinder(
  schema: AnySchema,
  onError: (issues: readonly v.BaseIssue<unknown>[]) => Error = (issues) => badRequest('cookie', issues),
  onStandardIssues?: (issues: readonly StandardSchemaV1.Issue[], input: unknown) => Error,
): (req: RequestHead) => unknown {
  if (isStandardSchema(schema)) return standardCookiesBinder(schema, onStandardIssues);
  const fields = fieldsOf(schema as v.GenericSchema, (k) => k);
  const validate = validator(schema as v.GenericSchema);
  return (req) => {
    const jar = parseCookieHeader(req.headers.cookie);
    const input: Record<string, unknown> = {};
    for (const f of fields) {
      const value = jar[f.wire];
      if (value !== undefined) input[f.key] = f.coercion.coerce(value);
    }
    const result = validate(input);
    if (!result.success) throw onError(result.issues);
    return result.output;
  };
}

/**
 * The exchange as core's binders see it (`CoreExchange` is one): the public `Exchange`, the one
 * read of the request body, and the list where shutdown finds requests still reading theirs.
 */
export interface BindingExchange extends Exchange {
  /** The request body, read once by whichever body binder asks first (kept with `keepBody`). */
  readonly body: Later<Buffer> | undefined;
  /** Keeps the body's one read for the other body binders. */
  keepBody(body: Later<Buffer>): void;
  /** Called by a binder that refuses a body mid-read: the answer closes the connection. */
  closeAfterAnswer(): void;
  readonly runtime: {
    /** Requests reading their body (shutdown answers them 503 at its cap). */
    readonly reading: Uploads;
    /** The app's logger (a spooled upload's files that could not be removed). */
    readonly log: Logger;
  };
  /** This exchange's place in `runtime.reading` (-1: not reading): the `Uploads` list writes it. */
  readingAt: number;
}

/**
 * A body read listed in its runtime's uploads while it reads, so shutdown can answer a slow upload
 * 503 at its cap.
 */
class ListedRead extends BodyRead {
  readonly #ex: BindingExchange;

  constructor(ex: BindingExchange, limit: number) {
    super(ex.req, limit);
    this.#ex = ex;
    ex.runtime.reading.add(ex);
  }

  protected override finished(): void {
    this.#ex.runtime.reading.delete(this.#ex);
  }
}

/** The body-reading binders share one read per request (within `limits.maxBodyBytes`). */
export function readBody(ex: BindingExchange, limits: Limits): Later<Buffer> {
  // Core's exchange carries the read (no state object per request).
  let body = ex.body;
  if (body === undefined) {
    const limit = limits.maxBodyBytes;
    body = declaresTooMuch(ex.req, limit) ? Later.failed(bodyTooLarge(limit)) : new ListedRead(ex, limit);
    ex.keepBody(body);
  }
  return body;
}

/**
 * The body as text in one native read, where the transport has one (`RequestBody.wholeText`: the
 * fetch transport's `Request.text()`, ~0.9 µs less per JSON body on Bun and ~2 µs on Deno than
 * bytes, a Buffer and a decode), for a body that declares its length within `maxBodyBytes` and
 * that nothing has started reading; undefined otherwise (the caller reads with `readBody`, which
 * also refuses a declared length over the limit, 413). The runtime's HTTP framing holds the body
 * to its declared length, as for the one-call byte read.
 */
export function readWholeText(ex: BindingExchange, limits: Limits): Later<string> | undefined {
  const req = ex.req;
  if (req.wholeText === undefined || ex.body !== undefined) return undefined;
  const declared = req.headers['content-length'];
  if (declared === undefined || Number(declared) > limits.maxBodyBytes) return undefined;
  return new WholeTextRead(ex, req.wholeText());
}

/** A whole-body text read, listed in its runtime's uploads while it reads (as `ListedRead`). */
class WholeTextRead extends Later<string> {
  constructor(ex: BindingExchange, text: Promise<string>) {
    super();
    ex.runtime.reading.add(ex);
    text.then(
      (value) => {
        ex.runtime.reading.delete(ex);
        this.resolve(value);
      },
      // The client left or the body broke mid-read: the 400 a counted read gives.
      () => {
        ex.runtime.reading.delete(ex);
        this.fail(connectionClosedMidBody());
      },
    );
  }
}

/** What a JSON body's 415 says the operation accepts. */
const JSON_ACCEPTED = 'application/json (or another +json type) in UTF-8, without a content-encoding';

/** Binds the JSON body: 415 other media type, 400 malformed, 422 invalid. */
export function jsonBinder(schema: AnySchema, limits: Limits): Binder {
  if (isStandardSchema(schema)) {
    const decodeText = standardJsonDecoder(schema, (text) => parseJsonText(text, limits.maxJsonDepth));
    const decode = (body: Buffer): unknown => decodeText(body.toString('utf8'));
    return (ex) => {
      checkJsonMediaType(ex);
      const whole = readWholeText(ex, limits);
      return whole !== undefined
        ? mapMaybeAsync(whole, decodeText)
        : mapMaybeAsync(readBody(ex, limits), decode);
    };
  }
  const validate = validator(schema as v.GenericSchema);
  // An invalid body fails the mapped `Later` instead of throwing (see `Later.map`): the 422 is this
  // binder's common refusal. Nothing else changes for a valid body (no check, no allocation).
  const decodeText = (text: string, into: Later<unknown>): unknown => {
    const value = parseJsonText(text, limits.maxJsonDepth);
    const result = validate(value);
    if (!result.success) into.fail(new ValidationFailedError(toErrorReason('json', result.issues)));
    return result.output;
  };
  const decode = (body: Buffer, into: Later<unknown>): unknown => decodeText(body.toString('utf8'), into);
  // Not async and no promise: the read's callback decodes, and the runner resumes from it. Where
  // the transport reads whole bodies natively (fetch), the text comes in one read.
  return (ex) => {
    const headers = ex.req.headers;
    const type = headers['content-type'];
    // The common exact `application/json` without content-encoding has nothing else to check.
    if (type !== 'application/json' || headers['content-encoding'] !== undefined) {
      if ((type !== undefined && !isJsonMediaType(type)) || !isPlainUtf8Body(headers))
        throw new UnsupportedMediaTypeError({ accepted: JSON_ACCEPTED });
    }
    const whole = readWholeText(ex, limits);
    return whole !== undefined ? whole.map(decodeText) : readBody(ex, limits).map(decode);
  };
}

/** The JSON binders' 415: another media type, a content-encoding, or a charset other than UTF-8. */
function checkJsonMediaType(ex: BindingExchange): void {
  const headers = ex.req.headers;
  const type = headers['content-type'];
  if (type !== 'application/json' || headers['content-encoding'] !== undefined) {
    if ((type !== undefined && !isJsonMediaType(type)) || !isPlainUtf8Body(headers))
      throw new UnsupportedMediaTypeError({ accepted: JSON_ACCEPTED });
  }
}

/** Binds the raw body bytes. */
export function contentBinder(limits: Limits): Binder {
  return (ex) => {
    const encoding = ex.req.headers['content-encoding'];
    // We never inflate request bodies: a compressed body is refused, not handed over as if plain.
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity')
      return Later.failed(
        new UnsupportedMediaTypeError({ accepted: 'any media type, without a content-encoding' }),
      );
    return readBody(ex, limits);
  };
}

/** Binds the as-sent request headers view. */
export const rawHeadersBinder: Binder = (ex) => new RawHeadersView(ex.req.rawHeaders);
