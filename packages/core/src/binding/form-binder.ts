import type { IncomingMessage } from 'node:http';
import type * as v from 'valibot';
import {
  MalformedRequestError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationFailedError,
} from '../errors';
import { WiringError } from '../errors/wiring-error';
import {
  isMultipartFormData,
  MultipartError,
  parseBoundary,
  parseMultipart,
  type MultipartPart,
} from '../multipart';
import type { Limits } from '../app/limits';
import { fieldCoercion, type FieldCoercion } from '../schema/coerce';
import { isOptional, node, objectEntries } from '../schema/introspect';
import { toErrorReason } from '../schema/issues';
import { headersBinder, validator, type Binder, type Validate } from './binders';
import { formPartInfo } from './form';
import { RawHeadersView } from './raw-headers';

interface FormField {
  readonly key: string;
  readonly kind: 'file' | 'part' | 'plain';
  readonly many: boolean;
  readonly optional: boolean;
  readonly coercion: FieldCoercion;
  readonly value: Validate | undefined;
  readonly headers: ((req: IncomingMessage) => unknown) | undefined;
}

function missing(key: string, message = 'Missing required field'): ValidationFailedError {
  return new ValidationFailedError({
    reason: `${message} at \`form ${key}\``,
    issues: [{ path: `form ${key}`, message }],
  });
}

/** Binds a multipart/form-data body: 415 not multipart, 400 broken, 413 over a limit, 422 invalid. */
export function formBinder(schema: v.GenericSchema, limits: Limits, where: string): Binder {
  const entries = objectEntries(schema);
  if (!entries)
    throw new WiringError(
      `${where}: the form source is not an object schema. Fix: declare form as a Struct.`,
    );
  const fields: FormField[] = Object.entries(entries).map(([key, field]) => {
    const info = formPartInfo(field);
    const headerSchema = info?.headers;
    return {
      key,
      kind: info ? (info.file ? 'file' : 'part') : 'plain',
      many: !info && fieldCoercion(field).many,
      optional: isOptional(field),
      coercion: fieldCoercion(info?.value ? node(info.value) : field),
      value: info?.value ? validator(info.value) : undefined,
      headers: headerSchema
        ? headersBinder(headerSchema, (issues) => new ValidationFailedError(toErrorReason('form', issues)))
        : undefined,
    };
  });
  const validate = validator(schema);
  return async (ex) => {
    const type = ex.req.headers['content-type'];
    const boundary = isMultipartFormData(type) ? parseBoundary(type) : undefined;
    if (!boundary) {
      if (isMultipartFormData(type))
        throw new MalformedRequestError({
          reason: 'multipart/form-data without a boundary',
          issues: [{ path: 'form', message: 'missing boundary' }],
        });
      throw new UnsupportedMediaTypeError();
    }
    let parts: MultipartPart[];
    try {
      parts = await parseMultipart(ex.req, boundary, limits.multipart);
    } catch (error) {
      ex.req.resume();
      if (error instanceof MultipartError) {
        if (error.kind === 'too-large') throw new PayloadTooLargeError();
        throw new MalformedRequestError({
          reason: `Malformed multipart body: ${error.message}`,
          issues: [{ path: 'form', message: error.message }],
        });
      }
      throw error;
    }
    const input: Record<string, unknown> = {};
    for (const f of fields) {
      const matching = parts.filter((p) => p.name === f.key);
      if (matching.length === 0) {
        if (!f.optional) throw missing(f.key);
        continue;
      }
      if (f.kind === 'plain') {
        const texts = matching.map((p) => f.coercion.coerce(p.data.toString('utf8')));
        input[f.key] = f.many ? texts : texts[texts.length - 1];
        continue;
      }
      const part = matching[matching.length - 1]!;
      const rawHeaders = new RawHeadersView(part.rawHeaders.flatMap(([k, val]) => [k, val]));
      const fakeReq = {
        headers: lowerHeaders(part.rawHeaders),
        headersDistinct: distinctHeaders(part.rawHeaders),
      } as unknown as IncomingMessage;
      const headers = f.headers ? f.headers(fakeReq) : {};
      if (f.kind === 'file') {
        if (part.filename === undefined || part.filename === '')
          throw missing(f.key, 'File part without a filename');
        input[f.key] = {
          filename: part.filename,
          content: part.data,
          contentType: part.contentType,
          headers,
          rawHeaders,
        };
      } else {
        const result = f.value!(f.coercion.coerce(part.data.toString('utf8')));
        if (!result.success)
          throw new ValidationFailedError(
            toErrorReason(
              'form',
              result.issues.map(
                (i) =>
                  ({ ...i, path: [{ key: f.key }, ...(i.path ?? [])] }) as unknown as v.BaseIssue<unknown>,
              ),
            ),
          );
        input[f.key] = { value: result.output, contentType: part.contentType, headers, rawHeaders };
      }
    }
    const result = validate(input);
    if (!result.success) throw new ValidationFailedError(toErrorReason('form', result.issues));
    return result.output;
  };
}

function lowerHeaders(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of pairs) {
    const key = k.toLowerCase();
    out[key] = out[key] === undefined ? val : `${out[key]}, ${val}`;
  }
  return out;
}

function distinctHeaders(pairs: ReadonlyArray<readonly [string, string]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, val] of pairs) (out[k.toLowerCase()] ??= []).push(val);
  return out;
}
