// Error bodies from Standard Schemas (zod 4, ArkType 2) in the document: a StructHTTPError's body, a
// DataclassHTTPError's params and an ErrorBodyAdapter's schema come from the library's Standard JSON
// Schema (output: the server writes them), named models as components; the document stays valid.
import { type } from 'arktype';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClient } from '@api/testing';
import {
  BaseApp,
  DataclassHTTPError,
  Endpoint,
  named,
  StructHTTPError,
  WiringError,
  type ErrorBodyAdapter,
} from '@api/core';
import { openapi } from '../src/index';
import { documentConformanceTests, type Document } from './conformance';
import type { Json } from './helpers';

const LegacyBody = named(
  'LegacyBody',
  z.object({ code: z.string(), message: z.string(), httpStatus: z.int() }),
);
class LegacyGoneError extends StructHTTPError.define(LegacyBody, {
  status: 410,
  description: 'Gone for good',
  consts: { code: 'E410' },
  templates: { message: 'No {thing}' },
  statusField: 'httpStatus',
  params: z.object({ thing: z.string() }),
}) {}
class ArkTeapotError extends StructHTTPError.define(type({ brewing: 'boolean' }), { status: 418 }) {}
const MissingParams = named('MissingParams', z.object({ id: z.string(), tries: z.number().default(0) }));
class MissingError extends DataclassHTTPError.define(MissingParams, {
  type: 'missing',
  title: 'Missing',
  status: 404,
  detailTemplate: 'No {id}',
}) {}

class Things extends Endpoint('/things') {
  get = this.operation(
    {
      meta: { summary: 'Read things', exceptions: [LegacyGoneError, ArkTeapotError, MissingError] },
      returns: z.object({ ok: z.boolean() }),
    },
    () => ({ ok: true }),
  );
}

async function documentWith(adapter?: ErrorBodyAdapter): Promise<Json> {
  class App extends BaseApp {
    protected override async wire(): Promise<void> {
      this.includeEndpoint(new Things());
      if (adapter) this.includeErrorAdapter(adapter);
      this.include(openapi({ title: 'T', version: '1' }));
    }
  }
  const client = await TestClient.start(new App({ logger: { info() {}, warn() {}, error() {} } }));
  try {
    return (await client.get('/openapi.json')).json();
  } finally {
    await client.close();
  }
}

const doc: Json = await documentWith();

describe('error bodies from Standard Schemas', () => {
  documentConformanceTests(() => doc as Document);

  it('documents a zod StructHTTPError body as its class component over the named model (output)', () => {
    const responses = doc.paths['/things'].get.responses;
    expect(responses['410']).toEqual({
      description: 'Gone for good',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/LegacyGoneError' } } },
    });
    expect(doc.components.schemas.LegacyGoneError).toEqual({
      allOf: [
        { $ref: '#/components/schemas/LegacyBody' },
        {
          type: 'object',
          properties: { code: { const: 'E410' }, httpStatus: { type: 'integer', const: 410 } },
          required: ['code', 'httpStatus'],
        },
      ],
      description: 'Gone for good',
    });
    expect(doc.components.schemas.LegacyBody).toEqual({
      type: 'object',
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        httpStatus: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      },
      required: ['code', 'message', 'httpStatus'],
      additionalProperties: false,
    });
  });

  it('inlines an anonymous ArkType body', () => {
    expect(doc.components.schemas.ArkTeapotError).toEqual({
      allOf: [{ type: 'object', properties: { brewing: { type: 'boolean' } }, required: ['brewing'] }],
      description: 'ArkTeapotError (418)',
    });
  });

  it("documents a DataclassHTTPError's zod params (output: a default makes the field required)", () => {
    expect(doc.components.schemas.MissingProblem.properties.params).toEqual({
      $ref: '#/components/schemas/MissingParams',
    });
    expect(doc.components.schemas.MissingParams).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, tries: { type: 'number', default: 0 } },
      required: ['id', 'tries'],
      additionalProperties: false,
    });
  });

  it("documents every Problem-family error as a zod adapter's body", async () => {
    const House = named('House', z.object({ error: z.string(), message: z.string() }));
    const withAdapter = await documentWith({
      schema: House,
      statusField: 'code',
      compose: (error) => ({ error: error.type, message: error.title }),
    } satisfies ErrorBodyAdapter<typeof House>);
    const missing = withAdapter.paths['/things'].get.responses['404'];
    expect(missing.content['application/json'].schema).toEqual({
      allOf: [
        { $ref: '#/components/schemas/House' },
        { type: 'object', properties: { code: { type: 'integer', const: 404 } }, required: ['code'] },
      ],
    });
    expect(withAdapter.components.schemas.House).toEqual({
      type: 'object',
      properties: { error: { type: 'string' }, message: { type: 'string' } },
      required: ['error', 'message'],
      additionalProperties: false,
    });
  });

  it('is a WiringError naming the error class when the body schema offers no JSON Schema', async () => {
    const bare = {
      '~standard': {
        version: 1 as const,
        vendor: 'bare',
        validate: (value: unknown) => ({ value }),
      },
    };
    // Core reads a body's fields from its JSON Schema, so such a schema is refused at definition.
    const error = (() => {
      try {
        StructHTTPError.define(bare as never, { status: 400 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(WiringError);
    expect((error as WiringError).code).toBe('API_WIRING_NOT_A_SCHEMA');
  });
});
