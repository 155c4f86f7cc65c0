import * as v from 'valibot';
import type { RawHeadersView } from './raw-headers';
import type { ObjectSchemaLike } from '../schema/object-schema';

const kFormPart = Symbol.for('@api/core.formPart');

/** A bound multipart part: the decoded value plus its envelope. */
export interface FormPartValue<T, THeaders> {
  readonly value: T;
  readonly contentType: string | undefined;
  /** The part headers bound into the declared schema. */
  readonly headers: THeaders;
  /** Every part header as sent. */
  readonly rawHeaders: RawHeadersView;
}

/** A bound file part: bytes plus a required filename. */
export interface FileFormPartValue<THeaders = Record<string, never>> {
  readonly filename: string;
  readonly content: Buffer;
  readonly contentType: string | undefined;
  readonly headers: THeaders;
  readonly rawHeaders: RawHeadersView;
}

/** What core records on a part marker schema. */
export interface FormPartInfo {
  readonly file: boolean;
  readonly value: v.GenericSchema | undefined;
  readonly headers: ObjectSchemaLike | undefined;
}

type PartSchema<T> = v.CustomSchema<T, undefined> & { readonly [kFormPart]: FormPartInfo };

function marker<T>(info: FormPartInfo): PartSchema<T> {
  const schema = v.custom<T>(() => true);
  Object.defineProperty(schema, kFormPart, { value: info });
  return schema as PartSchema<T>;
}

/**
 * Declares a form field bound with its envelope (`FormPart[T, H]`): the value is decoded with
 * `value` (text parts; numbers and booleans are coerced), headers bound from the part headers.
 *
 * @example
 * const Upload = Struct('Upload', { blob: FormPart(v.string(), { headers: Struct('BlobHeaders', { x_checksum: v.string() }) }) });
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
    THeaders extends ObjectSchemaLike ? v.InferOutput<THeaders> : Record<string, never>
  >
> {
  return marker({ file: false, value, headers: options.headers });
}

/**
 * Declares a file part (`FileFormPart`): a part with a required filename (422 without one).
 *
 * @example
 * const Upload = Struct('Upload', { avatar: FileFormPart() });
 */
export function FileFormPart<THeaders extends ObjectSchemaLike | undefined = undefined>(
  options: { headers?: THeaders } = {},
): PartSchema<
  FileFormPartValue<THeaders extends ObjectSchemaLike ? v.InferOutput<THeaders> : Record<string, never>>
> {
  return marker({ file: true, value: undefined, headers: options.headers });
}

/** The marker info of a form field schema, if it is a FormPart/FileFormPart. */
export function formPartInfo(schema: unknown): FormPartInfo | undefined {
  let s = schema as { [kFormPart]?: FormPartInfo; wrapped?: unknown } | undefined;
  while (s && !s[kFormPart] && s.wrapped) s = s.wrapped;
  return s?.[kFormPart];
}

/** The bound form: the schema's output. */
export type FormInput<TSchema extends ObjectSchemaLike> = v.InferOutput<TSchema>;
