import type { SchemaOutput } from '../contract/standard-schema';
import * as v from 'valibot';
import { describeValue, isObjectSchema, isSchema, wiringError } from '../contract/wiring-error';
import type { Readable } from 'node:stream';
import type { RawHeadersView } from './raw-headers';
import type { ObjectSchemaLike } from '../contract/object-schema';
import { node, unwrap } from '../schema/introspect';

const kFormPart = Symbol.for('@api/core.formPart');

/** A bound multipart part: the decoded value plus its envelope. */
export interface FormPartValue<T, THeaders> {
  /** The part body: text (numbers and booleans coerced), parsed JSON, or the bytes (`FormPart.bytes()`). */
  readonly value: T;
  readonly contentType: string | undefined;
  /** The part headers bound into the declared schema. */
  readonly headers: THeaders;
  /** Every part header as sent. */
  readonly rawHeaders: RawHeadersView;
}

/** A bound file part: bytes plus a required filename. */
export interface FileFormPartValue<THeaders = Record<string, never>> {
  /**
   * The file name, safe to use as a path segment: the last segment of the name as sent (after the
   * last `/` or `\`), with control characters (NUL, CR, LF, …) removed and surrounding whitespace
   * trimmed. Never empty, `.` or `..` (such names are refused with 422). A name that needed no
   * cleaning is passed through unchanged. At most 255 UTF-8 bytes: a longer name is cut, keeping
   * its extension and never splitting a character. Still user input: never trust it as unique or
   * as an extension that matches the content.
   */
  readonly filename: string;
  /**
   * The `filename` (or decoded `filename*`) parameter as sent — possibly with directories, `..`,
   * backslashes or control characters; only a name over 255 bytes is cut, like `filename`. For
   * display or audit only; never build a path from it.
   */
  readonly rawFilename: string;
  readonly content: Buffer;
  readonly contentType: string | undefined;
  readonly headers: THeaders;
  readonly rawHeaders: RawHeadersView;
}

/**
 * How core decodes a part: `text` (coerced to the schema's scalar), `json` (a structured schema:
 * the part body is parsed as JSON and validated), `bytes` (the body as a Buffer), `file`.
 */
export type FormPartKind = 'text' | 'json' | 'bytes' | 'file';

/** What core records on a part marker schema (document generators read `file` and `value`). */
export interface FormPartInfo {
  readonly kind: FormPartKind;
  /** True when the part body is binary (files and bytes parts): documented as `format: binary`. */
  readonly file: boolean;
  readonly value: v.GenericSchema | undefined;
  readonly headers: ObjectSchemaLike | undefined;
  /** True for `FileFormPart.spooled()`: the part goes to a temporary file as it streams in. */
  readonly spooled?: boolean;
}

/**
 * A file part spooled to a temporary file (`FileFormPart.spooled()`): read it with `stream()`
 * (backpressure is the reader's); the file is removed when the response ends.
 */
export interface SpooledFileFormPartValue<THeaders = Record<string, never>> {
  /** The safe basename of the name as sent. */
  readonly filename: string;
  /** The name as sent (at most 255 UTF-8 bytes). */
  readonly rawFilename: string;
  /** The temporary file (removed when the response ends: copy or move what you keep before). */
  readonly path: string;
  /** Its size in bytes. */
  readonly size: number;
  readonly contentType: string | undefined;
  readonly headers: THeaders;
  readonly rawHeaders: RawHeadersView;
  /** A fresh stream over the file's bytes. */
  stream(): Readable;
}

type PartSchema<T> = v.CustomSchema<T, undefined> & { readonly [kFormPart]: FormPartInfo };

/** Checks a part declaration's `options` (`{ headers? }`); `value` too for `FormPart(value)`. */
function checkPart(factory: string, options: unknown, value?: { readonly given: unknown }): void {
  if (value !== undefined && !isSchema(value.given))
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      factory,
      `the part's value must be a valibot schema, got ${describeValue(value.given)}`,
      'FormPart(v.string()) or FormPart(Meta) (a JSON part); FormPart.bytes() for raw bytes',
    );
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      factory,
      `options must be { headers? }, got ${describeValue(options)}`,
      "pass { headers: Struct('PartHeaders', { … }) } or nothing",
    );
  for (const key of Object.keys(options))
    if (key !== 'headers')
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        factory,
        `unknown option "${key}"`,
        'the only option is headers',
      );
  const headers = (options as { headers?: unknown }).headers;
  if (headers !== undefined && !isObjectSchema(headers))
    throw wiringError(
      'API_WIRING_NOT_A_SCHEMA',
      factory,
      `headers must be an object schema of the part's headers, got ${describeValue(headers)}`,
      "headers: Struct('PartHeaders', { x_checksum: v.string() })",
    );
}

function marker<T>(info: FormPartInfo): PartSchema<T> {
  const schema = v.custom<T>(() => true);
  Object.defineProperty(schema, kFormPart, { value: info });
  return schema as PartSchema<T>;
}

// Schemas whose values are not one scalar: their part body is JSON.
const STRUCTURED = new Set([
  'object',
  'loose_object',
  'strict_object',
  'object_with_rest',
  'record',
  'array',
  'tuple',
  'loose_tuple',
  'strict_tuple',
  'tuple_with_rest',
  'variant',
  'intersect',
]);
/** True for a schema whose value is structured (objects, arrays, …): such a part is sent as JSON. */
export function isStructured(schema: v.GenericSchema): boolean {
  const s = unwrap(node(schema)) as { type: string; options?: unknown };
  if (STRUCTURED.has(s.type)) return true;
  if (s.type === 'union' && Array.isArray(s.options)) {
    // Every member that is not null/undefined must be structured, so text stays text.
    const members = (s.options as { type: string }[]).filter(
      (o) => o.type !== 'null' && o.type !== 'undefined',
    );
    return members.length > 0 && members.every((o) => isStructured(o as v.GenericSchema));
  }
  return false;
}

/**
 * Declares a form field bound with its envelope (`FormPart[T, H]`), headers bound from the part
 * headers (a missing or invalid one is a 400). How the body is decoded follows `value`:
 * a scalar schema reads the text (numbers and booleans are coerced); a structured schema (a Struct,
 * `v.object`, `v.array`, `v.record`, …) parses the body as JSON (400 when it is not JSON, 422 with
 * the field path when it does not match). `FormPart.bytes()` keeps the raw bytes.
 * Wrap it in `v.array(...)` to bind every part of that name, in order.
 *
 * @param value - The schema of the part's value.
 * @param options - `headers`: a Struct bound from the part's own headers.
 * @example
 * const Upload = Struct('Upload', {
 *   blob: FormPart(v.string(), { headers: Struct('BlobHeaders', { x_checksum: v.string() }) }),
 *   meta: FormPart(Struct('Meta', { title: v.string() })), // a JSON part
 * });
 */
export function FormPart<
  TValue extends v.GenericSchema,
  THeaders extends ObjectSchemaLike | undefined = undefined,
>(
  value: TValue,
  options: { headers?: THeaders } = {},
): PartSchema<
  FormPartValue<
    v.InferOutput<TValue>,
    THeaders extends ObjectSchemaLike ? SchemaOutput<THeaders> : Record<string, never>
  >
> {
  checkPart('FormPart', options, { given: value });
  return marker({
    kind: isStructured(value) ? 'json' : 'text',
    file: false,
    value,
    headers: options.headers,
  });
}

/**
 * Declares a part whose value is its raw bytes (a `Buffer`), with or without a filename.
 *
 * @param options - `headers`: a Struct bound from the part's own headers.
 * @example
 * const Signed = Struct('Signed', { payload: FormPart.bytes(), signature: v.string() });
 */
FormPart.bytes = function bytes<THeaders extends ObjectSchemaLike | undefined = undefined>(
  options: { headers?: THeaders } = {},
): PartSchema<
  FormPartValue<Buffer, THeaders extends ObjectSchemaLike ? SchemaOutput<THeaders> : Record<string, never>>
> {
  checkPart('FormPart.bytes', options);
  return marker({ kind: 'bytes', file: true, value: undefined, headers: options.headers });
};

/**
 * Declares a file part (`FileFormPart`): a part with a required filename (422 without one).
 * `filename` is the safe basename; the name as sent is only in `rawFilename`.
 * Wrap it in `v.array(...)` to bind every file of that name, in order.
 *
 * @param options - `headers`: a Struct bound from the part's own headers.
 * @example
 * const Upload = Struct('Upload', { avatar: FileFormPart(), attachments: v.optional(v.array(FileFormPart())) });
 */
export function FileFormPart<THeaders extends ObjectSchemaLike | undefined = undefined>(
  options: { headers?: THeaders } = {},
): PartSchema<
  FileFormPartValue<THeaders extends ObjectSchemaLike ? SchemaOutput<THeaders> : Record<string, never>>
> {
  checkPart('FileFormPart', options);
  return marker({ kind: 'file', file: true, value: undefined, headers: options.headers });
}

/**
 * How core decodes the part(s) of one field of a form Struct: `text` (coerced to the field's
 * scalar), `json` (the part text is JSON: a `FormPart` of a structured schema, or a bare structured
 * field — a Struct, `v.object`, `v.record`, `v.array` of those), `bytes` or `file`. An array field
 * (`v.array(…)`) binds one part per item and reports its items' kind. Document generators use it
 * to declare each part's encoding.
 *
 * @param field - A field schema of a form Struct.
 * @example
 * formFieldKind(Meta); // 'json'
 * formFieldKind(v.array(FileFormPart())); // 'file'
 */
export function formFieldKind(field: unknown): FormPartKind {
  const direct = formPartInfo(field);
  if (direct) return direct.kind;
  const inner = unwrap(node(field as v.GenericSchema));
  const item = inner.type === 'array' && inner.item ? inner.item : undefined;
  const itemPart = item ? formPartInfo(item) : undefined;
  if (itemPart) return itemPart.kind;
  return isStructured((item ? unwrap(item) : inner) as v.GenericSchema) ? 'json' : 'text';
}

/** The marker info of a form field schema, if it is a FormPart/FileFormPart. */
export function formPartInfo(schema: unknown): FormPartInfo | undefined {
  let s = schema as { [kFormPart]?: FormPartInfo; wrapped?: unknown } | undefined;
  while (s && !s[kFormPart] && s.wrapped) s = s.wrapped;
  return s?.[kFormPart];
}

/**
 * The safe basename of a file name as sent: the text after the last `/` or `\`, without control
 * characters, trimmed; `undefined` when nothing usable is left (empty, `.` or `..`).
 *
 * @param raw - The `filename` parameter as sent.
 * @example
 * safeFilename('../../etc/passwd'); // 'passwd'
 * safeFilename('C:\\Users\\ada\\cv.pdf'); // 'cv.pdf'
 */
export function safeFilename(raw: string): string | undefined {
  const cut = Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\'));
  let name = cut < 0 ? raw : raw.slice(cut + 1);
  // C0 controls (NUL, CR, LF, …), DEL and C1 controls.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) name = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  name = limitFilename(name.trim());
  return name === '' || name === '.' || name === '..' ? undefined : name;
}

/** The longest file name handed to a handler, in UTF-8 bytes (what common file systems store). */
export const MAX_FILENAME_BYTES = 255;
/** An extension longer than this is not one worth keeping: the whole name is cut instead. */
const MAX_EXTENSION_BYTES = 64;

/**
 * A file name cut to at most 255 UTF-8 bytes: the stem is shortened and the extension (from the
 * last `.`, not a leading one) kept; never splits a character. Shorter names are returned as is.
 *
 * @param name - A file name.
 * @example
 * limitFilename('a'.repeat(10_000) + '.txt'); // 'aaa…a.txt', 255 bytes
 */
export function limitFilename(name: string): string {
  // Every UTF-16 unit is at most 3 UTF-8 bytes: short names need no count.
  if (name.length * 3 <= MAX_FILENAME_BYTES || Buffer.byteLength(name) <= MAX_FILENAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  let extension = dot > 0 ? name.slice(dot) : '';
  if (Buffer.byteLength(extension) > MAX_EXTENSION_BYTES) extension = '';
  const stem = extension === '' ? name : name.slice(0, dot);
  return utf8Prefix(stem, MAX_FILENAME_BYTES - Buffer.byteLength(extension)) + extension;
}

/** The longest prefix of `text` (whole code points) that fits in `max` UTF-8 bytes. */
function utf8Prefix(text: string, max: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > max) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** The bound form: the schema's output. */
export type FormInput<TSchema extends ObjectSchemaLike> = SchemaOutput<TSchema>;

/**
 * Declares a file part spooled to a temporary file as the body streams in, for uploads too large
 * to hold in memory: the next chunk is read only once the last one is on disk, at most
 * `limits.multipart.maxSpooledBytes` per request (1 GiB; 413 past it, while reading). The handler
 * gets `{ filename, rawFilename, path, size, contentType, headers, rawHeaders, stream() }`; the
 * file is removed when the response ends (and at once when the upload fails or is aborted).
 * Node only (it needs the file system).
 *
 * @param options - `headers`: a Struct bound from the part's own headers.
 * @example
 * const Upload = Struct('Upload', { title: v.string(), video: FileFormPart.spooled() });
 * // handler: await pipeline(form.video.stream(), createWriteStream(target))
 */
FileFormPart.spooled = function spooled<THeaders extends ObjectSchemaLike | undefined = undefined>(
  options: { headers?: THeaders } = {},
): PartSchema<
  SpooledFileFormPartValue<THeaders extends ObjectSchemaLike ? SchemaOutput<THeaders> : Record<string, never>>
> {
  checkPart('FileFormPart.spooled', options);
  return marker({ kind: 'file', file: true, value: undefined, headers: options.headers, spooled: true });
};
