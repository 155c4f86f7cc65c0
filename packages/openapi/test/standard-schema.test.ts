// A zod (and ArkType) app's document: JSON Schema from the libraries' Standard JSON Schema
// interface (input for requests, output for responses), named models as components, anonymous
// ones inlined, and the three outside checkers the demo's document passes.
import { type } from 'arktype';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Created, Endpoint, JSONResponse, named, Resource } from '@api/core';
import { documentConformanceTests, type Document } from './conformance';
import { documentOf, type Json } from './helpers';
import { WiringError } from '@api/core';

const Movie = named(
  'Movie',
  z.object({
    id: z.string(),
    title: z.string().min(1),
    year: z.number().int(),
    rating: z.number().default(0),
  }),
  { description: 'A movie' },
);
const Person = z.object({ name: z.string() }).meta({ id: 'Person' });
const MovieIn = z
  .object({ title: z.string().min(1), year: z.number().int(), cast: z.array(Person).optional() })
  .meta({ id: 'MovieIn' });
const Page = z.object({ limit: z.coerce.number().int().default(20), q: z.string().optional() });
const Review = named('Review', type({ stars: '1 <= number.integer <= 5', text: 'string' }));

class Movies extends Resource('/movies') {
  create = this.operation(
    {
      meta: { summary: 'Add a movie' },
      json: MovieIn,
      returns: Created.of(Movie, { headers: z.object({ x_trace_id: z.string() }) }),
    },
    () => new Created({ json: { id: '1', title: 't', year: 1, rating: 0 }, headers: { x_trace_id: 't' } }),
  );
  readMany = this.operation(
    { meta: { summary: 'List movies' }, params: Page, returns: z.array(Movie) },
    () => [],
  );
  readOne = this.operation(
    {
      meta: { summary: 'Read a movie' },
      path: z.object({ movie_id: z.string() }),
      headers: z.object({ x_request_tag: z.string().optional() }),
      returns: Movie,
    },
    () => ({ id: '1', title: 't', year: 1 }),
  );
}
class Reviews extends Endpoint('/reviews') {
  post = this.operation(
    { meta: { summary: 'Review' }, json: Review, returns: JSONResponse.of(Review) },
    ({ json }) => new JSONResponse({ json }),
  );
}

let doc: Json;
beforeAll(async () => {
  doc = await documentOf((a) => {
    a.includeResource(new Movies());
    a.includeEndpoint(new Reviews());
  });
});

describe('a zod and ArkType app', () => {
  documentConformanceTests(() => doc as Document);

  it('makes named models components: output for responses, <Name>Input where the input differs', () => {
    const schemas = doc.components.schemas;
    expect(schemas.Movie).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        title: { type: 'string', minLength: 1 },
        year: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        rating: { type: 'number', default: 0 },
      },
      required: ['id', 'title', 'year', 'rating'],
      additionalProperties: false,
      description: 'A movie',
    });
    expect(schemas.MovieIn.properties.cast).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Person' },
    });
    expect(schemas.Person).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    expect(schemas.Review).toEqual({
      type: 'object',
      properties: { stars: { type: 'integer', minimum: 1, maximum: 5 }, text: { type: 'string' } },
      required: ['stars', 'text'],
    });
  });

  it('references the components from bodies and responses; anonymous schemas are inlined', () => {
    const create = doc.paths['/movies'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MovieIn',
    });
    expect(create.responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Movie',
    });
    expect(create.responses['201'].headers['x-trace-id']).toEqual({
      required: true,
      schema: { type: 'string' },
    });
    const list = doc.paths['/movies'].get;
    // named() names a schema where it is used whole; inside another zod schema only zod's own
    // `.meta({ id })` names it (as Person in MovieIn), so the list's items are inlined.
    expect(list.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: doc.components.schemas.Movie && { ...doc.components.schemas.Movie, description: undefined },
    });
    expect(doc.paths['/reviews'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Review',
    });
  });

  it('documents query, path and header parameters from the input JSON Schema', () => {
    const list = doc.paths['/movies'].get.parameters;
    expect(list).toEqual([
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', default: 20, minimum: -9007199254740991, maximum: 9007199254740991 },
      },
      { name: 'q', in: 'query', required: false, schema: { type: 'string' } },
    ]);
    const one = doc.paths['/movies/{movie_id}'].get.parameters;
    expect(one).toEqual([
      { name: 'movie_id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'x-request-tag', in: 'header', required: false, schema: { type: 'string' } },
    ]);
  });
});

describe('a Standard Schema without JSON Schema', () => {
  it('is a WiringError naming the route and the fix, only with @api/openapi', async () => {
    const bare = {
      '~standard': { version: 1 as const, vendor: 'bare', validate: (value: unknown) => ({ value }) },
    };
    class Bare extends Endpoint('/bare') {
      post = this.operation({ json: bare }, () => undefined);
    }
    const error = await documentOf((a) => a.includeEndpoint(new Bare())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WiringError);
    expect((error as WiringError).code).toBe('API_WIRING_OPENAPI_NO_JSON_SCHEMA');
    expect((error as WiringError).where).toBe('Bare.post');
  });

  it('refuses two different models under one name', async () => {
    const A = named('Same', z.object({ a: z.string() }));
    const B = named('Same', z.object({ b: z.string() }));
    class Two extends Endpoint('/two') {
      post = this.operation({ json: A, returns: B }, () => ({ b: 'x' }));
    }
    const error = await documentOf((a) => a.includeEndpoint(new Two())).catch((e: unknown) => e);
    expect((error as WiringError).code).toBe('API_WIRING_OPENAPI_CONFLICT');
  });
});
