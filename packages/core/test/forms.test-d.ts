import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { Endpoint, FileFormPart, FormPart, Struct, type FileFormPartValue } from '../src/index';

const Meta = Struct('Meta', { title: v.string(), size: v.number() });
const PartHeaders = Struct('PartHeaders', { x_signature: v.string() });
const Form = Struct('Form', {
  meta: FormPart(Meta),
  payload: FormPart.bytes({ headers: PartHeaders }),
  files: v.array(FileFormPart()),
  counts: v.optional(v.array(FormPart(v.number()))),
});

describe('form part types', () => {
  it('types JSON parts, bytes parts, arrays of files and the raw file name', () => {
    class Upload extends Endpoint('/upload') {
      post = this.operation({ form: Form, returns: v.unknown() }, ({ form }) => {
        expectTypeOf(form.meta.value).toEqualTypeOf<{ title: string; size: number }>();
        expectTypeOf(form.payload.value).toEqualTypeOf<Buffer>();
        expectTypeOf(form.payload.headers).toEqualTypeOf<{ x_signature: string }>();
        expectTypeOf(form.files).toEqualTypeOf<FileFormPartValue[]>();
        expectTypeOf(form.files[0]!.filename).toEqualTypeOf<string>();
        expectTypeOf(form.files[0]!.rawFilename).toEqualTypeOf<string>();
        expectTypeOf(form.counts?.[0]?.value).toEqualTypeOf<number | undefined>();
        return null;
      });
    }
    void Upload;
  });

  it("types a bare nested Struct field (bound from JSON text) as the Struct's output", () => {
    const Nested = Struct('Nested', {
      meta: Meta,
      labels: v.optional(v.record(v.string(), v.number())),
      metas: v.array(Meta),
      when: v.pipe(
        v.string(),
        v.transform((s) => s.length),
      ),
    });
    class Upload extends Endpoint('/nested') {
      post = this.operation({ form: Nested, returns: v.unknown() }, ({ form }) => {
        expectTypeOf(form.meta).toEqualTypeOf<{ title: string; size: number }>();
        expectTypeOf(form.labels).toEqualTypeOf<Record<string, number> | undefined>();
        expectTypeOf(form.metas).toEqualTypeOf<{ title: string; size: number }[]>();
        expectTypeOf(form.when).toEqualTypeOf<number>();
        return null;
      });
    }
    void Upload;
  });
});
