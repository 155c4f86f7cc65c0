// Types from Standard Schemas (zod 4, ArkType 2): a handler sees each source's output type
// (transforms included), returns a `returns:` schema's input type, and wrong uses are compile errors.
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  Created,
  Endpoint,
  JSONResponse,
  named,
  Resource,
  type SchemaInput,
  type SchemaOutput,
  type SchemaReturn,
} from '../src/index';

const Body = z.object({
  title: z.string(),
  year: z.coerce.number().int(),
  tags: z.array(z.string()).default([]),
  slug: z.string().transform((s) => s.length),
});

describe('SchemaInput / SchemaOutput', () => {
  it('respect input vs output for zod, ArkType and valibot', () => {
    expectTypeOf<SchemaOutput<typeof Body>>().toEqualTypeOf<{
      title: string;
      year: number;
      tags: string[];
      slug: number;
    }>();
    expectTypeOf<SchemaInput<typeof Body>>().toEqualTypeOf<{
      title: string;
      year: unknown;
      tags?: string[] | undefined;
      slug: string;
    }>();
    const A = type({ n: 'string.numeric.parse', 'o?': 'boolean' });
    expectTypeOf<SchemaOutput<typeof A>>().toEqualTypeOf<{ n: number; o?: boolean }>();
    expectTypeOf<SchemaInput<typeof A>>().toEqualTypeOf<{ n: string; o?: boolean }>();
    const V = v.object({ n: v.pipe(v.string(), v.transform(Number)) });
    expectTypeOf<SchemaOutput<typeof V>>().toEqualTypeOf<{ n: number }>();
    expectTypeOf<SchemaInput<typeof V>>().toEqualTypeOf<{ n: string }>();
    expectTypeOf<SchemaReturn<typeof Body>>().toEqualTypeOf<SchemaInput<typeof Body>>();
    expectTypeOf<SchemaReturn<typeof V>>().toEqualTypeOf<SchemaOutput<typeof V>>();
  });
});

describe('handlers', () => {
  it('receive the output of every source', () => {
    class Movies extends Resource('/movies') {
      create = this.operation(
        {
          json: Body,
          params: z.object({ dry: z.boolean().optional() }),
          headers: type({ x_trace_id: 'string' }),
          cookies: z.object({ session: z.string() }),
          returns: Created.of(z.object({ id: z.string() }), { headers: z.object({ x_count: z.number() }) }),
        },
        ({ json, params, headers, cookies }) => {
          expectTypeOf(json.slug).toEqualTypeOf<number>();
          expectTypeOf(json.tags).toEqualTypeOf<string[]>();
          expectTypeOf(params.dry).toEqualTypeOf<boolean | undefined>();
          expectTypeOf(headers.x_trace_id).toEqualTypeOf<string>();
          expectTypeOf(cookies.session).toEqualTypeOf<string>();
          return new Created({ json: { id: '1' }, headers: { x_count: 1 } });
        },
      );
      readOne = this.operation(
        { path: type({ movie_id: 'number.integer' }), form: z.object({ note: z.string() }), returns: Body },
        ({ path, form }) => {
          expectTypeOf(path.movie_id).toEqualTypeOf<number>();
          expectTypeOf(form.note).toEqualTypeOf<string>();
          // A Standard Schema `returns:` takes the schema's input; core writes its output.
          return { title: 't', year: '1999', slug: 'abc' };
        },
      );
    }
    void Movies;
  });

  it('refuse a value that does not fit the declared response', () => {
    class Bad extends Endpoint('/bad') {
      // @ts-expect-error -- id must be a string
      get = this.operation({ returns: z.object({ id: z.string() }) }, () => ({ id: 1 }));
      post = this.operation({ returns: JSONResponse.of(named('Out', z.object({ id: z.string() }))) }, () =>
        // @ts-expect-error -- a JSONResponse of the declared body, not a plain value
        ({ id: 'x' }),
      );
    }
    void Bad;
  });

  it('refuse a non-object Standard Schema where fields are needed', () => {
    class NotObject extends Endpoint('/n') {
      // @ts-expect-error -- params must be an object schema
      get = this.operation({ params: z.string() }, () => undefined);
    }
    void NotObject;
  });
});
