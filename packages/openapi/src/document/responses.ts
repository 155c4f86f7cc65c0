import { isStandardSchema } from './standard';
import { STATUS_CODES } from 'node:http';
import {
  AuthenticationRequiredError,
  Created,
  InternalServerError,
  MalformedRequestError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationFailedError,
  type ErrorClass,
  type OperationMeta,
  type ResponseDoc,
  type RouteMeta,
} from '@api/core';
import { toHeaderName, wiringError, type ResponseKindInfo, type RouteInfo } from '@api/core/extension';
import type { ErrorDoc, ErrorDocs } from './errors';
import { examplesOf, type ExampleMap } from './examples';
import { BINARY, isOptional, objectEntries, type JsonSchema, type SchemaNode } from './json-schema';
import type { SchemaRegistry } from './schemas';
import { factHeaders, withFactHeaders } from './route-headers';

const BUILT_IN_KINDS = new Set(['json', 'text', 'bytes', 'empty']);

interface ResponseAcc {
  readonly descriptions: string[];
  /** media type → body schemas (several → `anyOf`; with errors on the same status, `oneOf`). */
  readonly content: Map<string, JsonSchema[]>;
  readonly itemSchemas: Map<string, JsonSchema>;
  /** media type → named examples of the bodies documented there. */
  readonly examples: Map<string, ExampleMap>;
  headers: Record<string, JsonSchema> | undefined;
}

const pushDescription = (r: ResponseAcc, d: string): void => {
  if (!r.descriptions.includes(d)) r.descriptions.push(d);
};

/**
 * An object for status-code keys ("200", "404"). V8 stores integer-like keys as array elements:
 * a plain `{}` given "500" grows a holey backing store of 500+ slots (copied as it grows, walked
 * by `JSON.stringify`). Starting in dictionary mode keeps it a small hash: measured 10x faster to
 * build and 3-5x faster to stringify over 1,000 operations.
 */
function statusKeyed(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  out[DICTIONARY_INDEX] = 0;
  delete out[DICTIONARY_INDEX];
  return out;
}
const DICTIONARY_INDEX = 1_000_000;

/**
 * Builds the `responses` of operations: the successes the route declares, the errors derived from
 * its inputs and mount plus the declared exceptions, and `meta.responses` overrides. One per
 * document: error responses shared by several operations are one object.
 */
export class ResponseDocs {
  readonly #registry: SchemaRegistry;
  readonly #errors: ErrorDocs;
  readonly #v32: boolean;
  readonly #errorResponses = new Map<string, Record<string, unknown>>();

  /**
   * @param registry where the schemas are converted
   * @param errors how error classes document
   * @param v32 true for an OpenAPI 3.2 document (streams get `itemSchema`)
   */
  constructor(registry: SchemaRegistry, errors: ErrorDocs, v32: boolean) {
    this.#registry = registry;
    this.#errors = errors;
    this.#v32 = v32;
  }

  /**
   * The `responses` object of one operation, keyed by status in ascending order.
   *
   * @param route the catalogue's route
   * @param where `Owner.operation`, for wiring errors
   * @param classMeta the owner class's meta
   * @param meta the operation's meta
   */
  of(route: RouteInfo, where: string, classMeta: RouteMeta, meta: OperationMeta): Record<string, unknown> {
    const acc = new Map<number, ResponseAcc>();
    const slot = (status: number): ResponseAcc => {
      let r = acc.get(status);
      if (!r) {
        r = {
          descriptions: [],
          content: new Map(),
          itemSchemas: new Map(),
          examples: new Map(),
          headers: undefined,
        };
        acc.set(status, r);
      }
      return r;
    };

    for (const info of route.responses) this.#success(info, route, where, slot);

    const errors = this.#errorsOf(route, where, classMeta, meta);

    const explicit: Record<string, ResponseDoc> = {
      ...(classMeta.responses ?? {}),
      ...(meta.responses ?? {}),
    };
    const overrides = new Map<number, JsonSchema>();
    for (const [key, doc] of Object.entries(explicit)) {
      const status = Number(key);
      if (!Number.isInteger(status) || status < 100 || status > 599) {
        throw wiringError(
          'API_WIRING_STATUS',
          where,
          `meta.responses has status "${key}"`,
          'use an HTTP status from 100 to 599 as the key',
        );
      }
      const response: JsonSchema = { description: doc.description ?? STATUS_CODES[status] ?? 'Response' };
      if (doc.model) {
        response.content = {
          [doc.contentType ?? 'application/json']: {
            schema: this.#registry.model(doc.model, where, true),
          },
        };
      } else if (doc.contentType) response.content = { [doc.contentType]: {} };
      overrides.set(status, response);
    }

    const out = statusKeyed();
    const statuses = [...new Set([...acc.keys(), ...errors.keys(), ...overrides.keys()])].sort(
      (a, b) => a - b,
    );
    for (const status of statuses) {
      const override = overrides.get(status);
      if (override) {
        out[String(status)] = override;
        continue;
      }
      const r = acc.get(status);
      const docs = errors.get(status);
      if (!r) {
        out[String(status)] = this.#errorResponse(docs!);
        continue;
      }
      for (const doc of docs ?? []) {
        pushDescription(r, doc.description);
        const list = r.content.get(doc.contentType) ?? [];
        if (!list.includes(doc.schema)) list.push(doc.schema);
        r.content.set(doc.contentType, list);
      }
      const response: Record<string, unknown> = {
        description: r.descriptions.join(' / ') || STATUS_CODES[status] || 'Response',
      };
      if (r.headers) response.headers = r.headers;
      if (r.content.size > 0) {
        const content: Record<string, unknown> = {};
        for (const [mediaType, schemas] of r.content) {
          const media: Record<string, unknown> = {};
          if (schemas.length === 1) media.schema = schemas[0];
          else if (schemas.length > 1) media.schema = docs ? { oneOf: schemas } : { anyOf: schemas };
          const item = r.itemSchemas.get(mediaType);
          if (item) media.itemSchema = item;
          const examples = r.examples.get(mediaType);
          if (examples) media.examples = examples;
          content[mediaType] = media;
        }
        response.content = content;
      }
      out[String(status)] = response;
    }
    // Headers extensions' answers carry on this route (their facts' `responseHeaders`).
    const headers = factHeaders(route);
    if (headers.length > 0)
      for (const status of statuses)
        out[String(status)] = withFactHeaders(
          out[String(status)] as Record<string, unknown>,
          status,
          headers,
        );
    return out;
  }

  /**
   * The errors an operation answers with, by status. Three sources: the generic errors core
   * derives from the operation's inputs and mount (400 for a query, header, cookie or body source;
   * 401 behind an authenticator; 404 for a path; 413, 415 and 422 for a body; 500 always); the errors its mount options and extensions
   * raise, from the catalogue (`route.errors`: the authenticator's 401, …); and the declared
   * `meta.exceptions` (class entries, then the operation's). A declared exception on a status
   * replaces the derived one there (it says more precisely what that status means for this
   * operation); what the catalogue says the mount raises is always listed.
   */
  #errorsOf(
    route: RouteInfo,
    where: string,
    classMeta: RouteMeta,
    meta: OperationMeta,
  ): Map<number, ErrorDoc[]> {
    const spec = route.spec ?? {};
    const derived: ErrorClass[] = [];
    if (spec.json || spec.form || spec.params || spec.headers || spec.cookies)
      derived.push(MalformedRequestError);
    // @api/auth lists its 401 in `route.errors`; an authenticator of another make may only say
    // that it authenticates (the auth fact): its 401 is still the framework's answer.
    if (route.facts.get('auth') !== undefined) derived.push(AuthenticationRequiredError);
    if (spec.path) derived.push(NotFoundError);
    if (spec.json || spec.form || spec.content) derived.push(PayloadTooLargeError);
    if (spec.json || spec.form) derived.push(UnsupportedMediaTypeError, ValidationFailedError);
    derived.push(InternalServerError);
    const declared = [...(classMeta.exceptions ?? []), ...(meta.exceptions ?? [])].map((cls) =>
      this.#errors.doc(cls, where),
    );
    const declaredStatuses = new Set(declared.map((doc) => doc.status));
    const errors = new Map<number, ErrorDoc[]>();
    const add = (doc: ErrorDoc): void => {
      const list = errors.get(doc.status);
      if (!list) errors.set(doc.status, [doc]);
      else if (!list.includes(doc)) list.push(doc);
    };
    // Filtered by the class's status before documenting it: a replaced error adds no component.
    for (const cls of derived)
      if (!declaredStatuses.has((cls as unknown as { status: number }).status))
        add(this.#errors.doc(cls, where));
    for (const cls of route.errors ?? []) add(this.#errors.doc(cls, where));
    for (const doc of declared) add(doc);
    // Statuses in ascending order are decided by the caller; within one, derived and raised first.
    return errors;
  }

  /**
   * The response object of a set of error classes on one status. Operations with the same set
   * share one object (the 500 of every operation, the 401 of every authed one…).
   */
  #errorResponse(docs: readonly ErrorDoc[]): Record<string, unknown> {
    const key = docs.map((d) => this.#errors.idOf(d)).join(',');
    const cached = this.#errorResponses.get(key);
    if (cached) return cached;
    const descriptions: string[] = [];
    const byType = new Map<string, JsonSchema[]>();
    for (const doc of docs) {
      if (!descriptions.includes(doc.description)) descriptions.push(doc.description);
      const list = byType.get(doc.contentType);
      if (!list) byType.set(doc.contentType, [doc.schema]);
      else if (!list.includes(doc.schema)) list.push(doc.schema);
    }
    const content: Record<string, unknown> = {};
    for (const [mediaType, schemas] of byType) {
      content[mediaType] = { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas } };
    }
    const response = { description: descriptions.join(' / '), content };
    this.#errorResponses.set(key, response);
    return response;
  }

  #success(
    info: ResponseKindInfo,
    route: RouteInfo,
    where: string,
    slot: (status: number) => ResponseAcc,
  ): void {
    const status = info.status ?? (info.kind === 'empty' ? 204 : route.defaultStatus);
    const r = slot(status);
    pushDescription(r, STATUS_CODES[status] ?? 'Response');
    if (info.headers || info.cls === Created) {
      r.headers ??= {};
      if (info.cls === Created) {
        r.headers.location = {
          description: 'The URL of the created resource, when the handler sets one.',
          schema: { type: 'string' },
        };
      }
      if (isStandardSchema(info.headers))
        for (const field of this.#registry.standardFields(info.headers, where))
          r.headers[toHeaderName(field.key)] = { required: field.required, schema: field.schema };
      else
        for (const [field, schema] of Object.entries(
          info.headers ? (objectEntries(info.headers as unknown as SchemaNode) ?? {}) : {},
        )) {
          r.headers[toHeaderName(field)] = {
            required: !isOptional(schema),
            schema: this.#registry.inline(schema),
          };
        }
    }
    const add = (mediaType: string, schema: JsonSchema | undefined): void => {
      const list = r.content.get(mediaType) ?? [];
      if (schema) list.push(schema);
      r.content.set(mediaType, list);
    };
    const schemaOf = (): JsonSchema | undefined =>
      info.schema ? this.#registry.model(info.schema as unknown as SchemaNode, where, true) : undefined;
    switch (info.kind) {
      case 'empty':
        return;
      case 'json': {
        const mediaType = info.contentType ?? 'application/json';
        add(mediaType, schemaOf() ?? {});
        const node = isStandardSchema(info.schema)
          ? undefined
          : (info.schema as unknown as SchemaNode | undefined);
        const examples = node ? examplesOf(node, this.#registry.nameOf(node), where) : undefined;
        if (examples) r.examples.set(mediaType, { ...r.examples.get(mediaType), ...examples });
        return;
      }
      case 'text':
        add(info.contentType ?? 'text/plain; charset=utf-8', { type: 'string' });
        return;
      case 'bytes':
        add(info.contentType ?? 'application/octet-stream', { ...BINARY });
        return;
    }
    if (BUILT_IN_KINDS.has(info.kind)) return;
    // An extension's kind (streams): the item schema under its media type; 3.2 says `itemSchema`.
    const mediaType = info.contentType ?? 'application/octet-stream';
    const item = schemaOf();
    if (!this.#v32) {
      add(mediaType, item ?? { ...BINARY });
      return;
    }
    add(mediaType, undefined);
    if (info.kind === 'sse') {
      r.itemSchemas.set(mediaType, {
        type: 'object',
        properties: {
          event: { type: 'string' },
          id: { type: 'string' },
          retry: { type: 'integer', minimum: 0 },
          data: item
            ? { type: 'string', contentMediaType: 'application/json', contentSchema: item }
            : { type: 'string' },
        },
        required: ['data'],
      });
    } else if (item) r.itemSchemas.set(mediaType, item);
    else r.content.set(mediaType, [{ ...BINARY }]);
  }
}
