import type * as v from 'valibot';
import {
  MalformedRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationFailedError,
} from '../errors';
import { wiringError } from '../contract/wiring-error';
import {
  isMultipartFormData,
  MultipartError,
  parseBoundary,
  parseMultipart,
  type MultipartPart,
} from '../multipart';
import type { Limits } from '../contract/limits';
import type { RequestHead } from '../contract/exchange';
import { fieldCoercion, type FieldCoercion } from '../schema/coerce';
import { isOptional, node, objectEntries, unwrap } from '../schema/introspect';
import { toErrorReason } from '../schema/issues';
import {
  headersBinder,
  readBody,
  validator,
  type Binder,
  type BindingExchange,
  type Validate,
} from './binders';
import { hasPrototypeKeys, isPlainUtf8Body, jsonDepthExceeds } from './body';
import { isUrlEncodedForm, parseUrlEncoded } from './url-encoded';
import { readSpooled, requestSpool, type RequestSpool } from './spool';
import {
  formFieldKind,
  formPartInfo,
  limitFilename,
  safeFilename,
  type FormPartInfo,
  type FormPartKind,
} from './form';
import { RawHeadersView } from './raw-headers';
import type { AnySchema } from '../contract/standard-schema';
import { isStandardSchema, noShape, standardFields, type ForeignSchema } from '../schema/standard';
import { coercerFor } from '../schema/coerce';
import { mapMaybeAsync, sourceCheck } from './standard-binders';

interface FormField {
  readonly key: string;
  /** A `FileFormPart.spooled()` field: its file parts go to temporary files. */
  readonly spooled: boolean;
  /** `plain`: text coerced to the schema; `plain-json`: a bare structured field, its part text is JSON. */
  readonly kind: 'plain' | 'plain-json' | FormPartKind;
  /** Every part of the name (a plain array field, or `v.array(FormPart/FileFormPart)`). */
  readonly many: boolean;
  readonly optional: boolean;
  readonly coercion: FieldCoercion;
  readonly value: Validate | undefined;
  readonly headers: ((req: RequestHead) => unknown) | undefined;
}

function missing(key: string, message = 'Missing required field'): ValidationFailedError {
  return new ValidationFailedError({
    reason: `${message} at \`form ${key}\``,
    issues: [{ path: `form ${key}`, message }],
  });
}

function malformed(path: string, message: string): MalformedRequestError {
  return new MalformedRequestError({ reason: `${message} at \`${path}\``, issues: [{ path, message }] });
}

/** Carries part-header issues from the compiled binder to the place that knows the part's path. */
class PartHeaderIssues extends Error {
  constructor(readonly issues: readonly v.BaseIssue<unknown>[]) {
    super('part headers');
  }
}

/** A part header the declared schema needs but cannot bind is a 400 (as for request headers). */
function partHeaderError(label: string, issues: readonly v.BaseIssue<unknown>[]): MalformedRequestError {
  const list = toErrorReason('header', issues).issues.map((i) => ({
    path: `form ${label} ${i.path}`,
    message: i.message,
  }));
  const first = list[0] ?? { path: `form ${label}`, message: 'Invalid part header' };
  return new MalformedRequestError({ reason: `${first.message} at \`${first.path}\``, issues: list });
}

/** The part schema of a field: itself, or the item of an array (`v.array(FileFormPart())`). */
function partOf(field: v.GenericSchema): { info: FormPartInfo; many: boolean } | undefined {
  const info = formPartInfo(field);
  if (info) return { info, many: false };
  const inner = unwrap(node(field));
  if (inner.type === 'array' && inner.item) {
    const item = formPartInfo(inner.item);
    if (item) return { info: item, many: true };
  }
  return undefined;
}

/** Parses a JSON part with the body's safety checks (depth, prototype keys, syntax): each a 400. */
function parsePartJson(data: Buffer, path: string, maxDepth: number): unknown {
  const text = data.toString('utf8');
  if (text.trim().length === 0) throw malformed(path, 'Form part is empty; expected JSON');
  if (text.length >= 2 * (maxDepth + 1) && jsonDepthExceeds(text, maxDepth))
    throw malformed(path, `JSON nesting is deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed(path, 'Form part is not valid JSON');
  }
  // As for JSON bodies: an escape could spell the key ("__\u0070roto__"), so check after unescaping.
  if ((text.includes('proto') || text.includes('\\u')) && hasPrototypeKeys(value))
    throw malformed(path, 'JSON keys "__proto__" and "constructor.prototype" are not accepted');
  return value;
}

/**
 * Binds a multipart/form-data or application/x-www-form-urlencoded body: 415 another media type
 * (or multipart without a usable boundary), 413 over a limit (by `content-length` before reading
 * anything), 400 broken, 422 invalid.
 */
export function formBinder(schema: AnySchema, limits: Limits, where: string): Binder {
  const std = isStandardSchema(schema) ? schema : undefined;
  const entries = std ? {} : objectEntries(schema as v.GenericSchema);
  if (std && !standardFields(std)) throw noShape(where, 'form');
  if (!entries)
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      where,
      'the form source is not an object schema',
      'declare form as a Struct',
    );
  const fields: FormField[] = std
    ? standardFormFields(std)
    : Object.entries(entries).map(([key, field]) => {
        const part = partOf(field as v.GenericSchema);
        if (!part) {
          const coercion = fieldCoercion(field);
          return {
            key,
            // A bare structured field (a nested Struct, a record, a list of them): its part text is JSON.
            kind: formFieldKind(field) === 'json' ? 'plain-json' : 'plain',
            spooled: false,
            many: coercion.many,
            optional: isOptional(field),
            coercion,
            value: undefined,
            headers: undefined,
          };
        }
        const { info, many } = part;
        const headerSchema = info.headers;
        return {
          key,
          kind: info.kind,
          spooled: info.spooled === true,
          many,
          optional: isOptional(field),
          coercion: fieldCoercion(info.value ? node(info.value) : field),
          value: info.value ? validator(info.value) : undefined,
          headers: headerSchema
            ? headersBinder(headerSchema, (issues) => new PartHeaderIssues(issues))
            : undefined,
        };
      });
  const validate = std ? undefined : validator(schema as v.GenericSchema);
  const check = std ? sourceCheck(std, 'form') : undefined;
  const spooledFields: ReadonlySet<string> = new Set(fields.filter((f) => f.spooled).map((f) => f.key));
  // Spooled files are on disk: a declared length may exceed the in-memory total by their bound.
  const maxTotal =
    limits.multipart.maxTotalSize + (spooledFields.size > 0 ? limits.multipart.maxSpooledBytes : 0);
  const maxDepth = limits.maxJsonDepth;

  const bindPart = (f: FormField, part: MultipartPart, index: number | undefined): unknown => {
    const label = index === undefined ? f.key : `${f.key}.${index}`;
    const rawHeaders = new RawHeadersView(part.rawHeaders.flatMap(([k, val]) => [k, val]));
    let headers: unknown = {};
    if (f.headers) {
      const fakeReq = {
        headers: lowerHeaders(part.rawHeaders),
        headersDistinct: distinctHeaders(part.rawHeaders),
      } as unknown as RequestHead;
      try {
        headers = f.headers(fakeReq);
      } catch (error) {
        if (error instanceof PartHeaderIssues) throw partHeaderError(label, error.issues);
        throw error;
      }
    }
    switch (f.kind) {
      case 'file': {
        const raw = part.filename;
        if (raw === undefined || raw === '') throw missing(label, 'File part without a filename');
        const filename = safeFilename(raw);
        if (filename === undefined) throw missing(label, 'File part filename has no usable name');
        const spooled = part.spooled;
        if (f.spooled && spooled !== undefined)
          return {
            filename,
            rawFilename: limitFilename(raw),
            path: spooled.path,
            size: spooled.size,
            contentType: part.contentType,
            headers,
            rawHeaders,
            stream: () => readSpooled(spooled.path),
          };
        return {
          filename,
          rawFilename: limitFilename(raw),
          content: part.data,
          contentType: part.contentType,
          headers,
          rawHeaders,
        };
      }
      case 'bytes':
        return { value: part.data, contentType: part.contentType, headers, rawHeaders };
      case 'plain': // plain fields are bound without an envelope (never reach here)
      case 'plain-json':
      case 'text':
      case 'json': {
        const decoded =
          f.kind === 'json'
            ? parsePartJson(part.data, `form ${label}`, maxDepth)
            : f.coercion.coerce(part.data.toString('utf8'));
        const result = f.value!(decoded);
        if (!result.success) {
          const prefix = index === undefined ? [{ key: f.key }] : [{ key: f.key }, { key: index }];
          throw new ValidationFailedError(
            toErrorReason(
              'form',
              result.issues.map(
                (i) => ({ ...i, path: [...prefix, ...(i.path ?? [])] }) as unknown as v.BaseIssue<unknown>,
              ),
            ),
          );
        }
        return { value: result.output, contentType: part.contentType, headers, rawHeaders };
      }
    }
  };

  const readMultipart = async (ex: BindingExchange, boundary: string): Promise<unknown> => {
    // Refused before a byte is read; the 413 closes the connection, so nothing is drained.
    const declared = ex.req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxTotal)
      throw new PayloadTooLargeError({ limit: 'multipart.maxTotalSize', bytes: maxTotal });
    let parts: MultipartPart[];
    let spool: RequestSpool | undefined;
    if (spooledFields.size > 0) {
      const opened = (spool = requestSpool(spooledFields, limits.multipart.maxSpooledBytes));
      // Removed when the response ends, however it ends (sent, failed, or the client left).
      ex.res.once('close', () => void opened.remove().catch((error: unknown) => spoolLeft(ex, error)));
    }
    try {
      parts = await parseMultipart(ex.req, boundary, limits.multipart, spool);
    } catch (error) {
      await spool?.remove().catch((failure: unknown) => spoolLeft(ex, failure));
      if (error instanceof MultipartError) {
        // Refused mid-body: answer and close rather than drain an unbounded rest.
        if (!ex.req.readableEnded) ex.closeAfterAnswer();
        if (error.kind === 'too-large')
          throw new PayloadTooLargeError(error.limit ?? { limit: 'multipart.maxTotalSize', bytes: maxTotal });
        throw new MalformedRequestError({
          reason: `Malformed multipart body: ${error.message}`,
          issues: [{ path: 'form', message: error.message }],
        });
      }
      throw error;
    }
    return bindParts(parts);
  };

  const bindParts = (parts: readonly MultipartPart[]): unknown => {
    const byName = new Map<string, MultipartPart[]>();
    for (const part of parts) {
      const list = byName.get(part.name);
      if (list) list.push(part);
      else byName.set(part.name, [part]);
    }
    const input: Record<string, unknown> = {};
    for (const f of fields) {
      const matching = byName.get(f.key);
      if (matching === undefined) {
        if (!f.optional) throw missing(f.key);
        continue;
      }
      if (f.kind === 'plain') {
        const texts = matching.map((p) => f.coercion.coerce(p.data.toString('utf8')));
        input[f.key] = f.many ? texts : texts[texts.length - 1];
      } else if (f.kind === 'plain-json') {
        // Decoded here (400 naming the part); the form's own validation below checks the shape
        // (422 with the field path, e.g. `form meta.size`).
        input[f.key] = f.many
          ? matching.map((p, i) => parsePartJson(p.data, `form ${f.key}.${i}`, maxDepth))
          : parsePartJson(matching[matching.length - 1]!.data, `form ${f.key}`, maxDepth);
      } else if (f.many) input[f.key] = matching.map((p, i) => bindPart(f, p, i));
      else input[f.key] = bindPart(f, matching[matching.length - 1]!, undefined);
    }
    if (check !== undefined) return check(input);
    const result = validate!(input);
    if (!result.success) throw new ValidationFailedError(toErrorReason('form', result.issues));
    return result.output;
  };

  return (ex) => {
    const type = ex.req.headers['content-type'];
    // An HTML form's default encoding: the same fields as parts without filenames (a file field
    // cannot be sent this way: it is missing its filename, a 422). Read within maxBodyBytes.
    if (isUrlEncodedForm(type)) {
      if (!isPlainUtf8Body(ex.req.headers)) throw new UnsupportedMediaTypeError({ accepted: FORM_TYPES });
      const body = readBody(ex, limits);
      const bind = (data: Buffer): unknown => bindParts(parseUrlEncoded(data, limits.multipart));
      return check === undefined ? body.map(bind) : mapMaybeAsync(body, bind);
    }
    // Without a usable boundary the body cannot be read as multipart at all: the media type is unsupported.
    const boundary = isMultipartFormData(type) ? parseBoundary(type) : undefined;
    if (!boundary) throw new UnsupportedMediaTypeError({ accepted: FORM_TYPES });
    return readMultipart(ex, boundary);
  };
}

/** The fields of a Standard Schema form: plain text fields, or JSON text for structured ones (no parts). */
function standardFormFields(schema: ForeignSchema): FormField[] {
  return (standardFields(schema) ?? []).map((f) => {
    const types = f.schema.type;
    const structured =
      types === 'object' ||
      (f.many &&
        typeof f.schema.items === 'object' &&
        (f.schema.items as { type?: unknown }).type === 'object');
    return {
      key: f.key,
      kind: structured ? 'plain-json' : 'plain',
      spooled: false,
      many: f.many,
      optional: !f.required || f.hasDefault,
      coercion: { many: f.many, coerce: coercerFor(f.scalar) },
      value: undefined,
      headers: undefined,
    };
  });
}

/** What a `form` route reads, as its 415 says. */
const FORM_TYPES =
  'multipart/form-data with a boundary parameter, or application/x-www-form-urlencoded in UTF-8 ' +
  'without a content-encoding';

// Null-prototype maps: a part header named `constructor` or `__proto__` is just a name.
function lowerHeaders(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const [k, val] of pairs) {
    const key = k.toLowerCase();
    out[key] = out[key] === undefined ? val : `${out[key]}, ${val}`;
  }
  return out;
}

function distinctHeaders(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  for (const [k, val] of pairs) (out[k.toLowerCase()] ??= []).push(val);
  return out;
}

/** A spooled upload's temporary files could not be removed: the operator hears of it (disk fills otherwise). */
function spoolLeft(ex: BindingExchange, error: unknown): void {
  ex.runtime.log.error(`${ex.method} ${ex.path}: could not remove a spooled upload's temporary files`, error);
}
