import { STATUS_CODES } from 'node:http';
import {
  AuthenticationRequiredError,
  Created,
  InternalServerError,
  MalformedRequestError,
  NotFoundError,
  PayloadTooLargeError,
  Tag,
  UnsupportedMediaTypeError,
  ValidationFailedError,
  type ErrorBodyAdapter,
  type ErrorClass,
  type OperationMeta,
  type ResponseDoc,
  type RouteMeta,
} from '@api/core';
import {
  parseTemplate,
  type ResponseKindInfo,
  type RouteCatalogue,
  type RouteInfo,
  toHeaderName,
} from '@api/core/extension';
import { ErrorDocs, type ErrorDoc } from './errors';
import { fail } from './fail';
import { isOptional, objectEntries, type JsonSchema, type SchemaNode } from './json-schema';
import { SchemaRegistry } from './schemas';

/** An OpenAPI document as plain JSON data. */
export type OpenAPIDocument = { readonly openapi: string } & Record<string, unknown>;

/** A `servers` entry. */
export interface OpenAPIServer {
  readonly url: string;
  readonly description?: string;
}

/** What the document is built from besides the catalogue. */
export interface DocumentOptions {
  readonly title: string;
  readonly version: string;
  readonly description?: string | undefined;
  readonly servers?: readonly (string | OpenAPIServer)[] | undefined;
  readonly tags?: readonly (string | Tag)[] | undefined;
  /** `3.1.0` (default) or `3.2.0` (streams document `itemSchema`). */
  readonly openapiVersion?: '3.1.0' | '3.2.0' | undefined;
  /** The app's error adapter, when one is registered (Problem errors then document its body). */
  readonly errorAdapter?: ErrorBodyAdapter | undefined;
}

/** How an authenticator is advertised (`AuthFacts` of @api/auth, read structurally). */
interface SecurityFacts {
  readonly anonymous: boolean;
  readonly scheme: { readonly schemeName: string; toOpenapi(): Record<string, unknown> };
}

const BUILT_IN_KINDS = new Set(['json', 'text', 'bytes', 'empty']);
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const BINARY: JsonSchema = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };

interface ResponseAcc {
  readonly descriptions: string[];
  /** media type → body schemas (several → `anyOf`; with errors on the same status, `oneOf`). */
  readonly content: Map<string, JsonSchema[]>;
  readonly itemSchemas: Map<string, JsonSchema>;
  headers: Record<string, JsonSchema> | undefined;
}

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
 * Builds the OpenAPI document of a finished route catalogue. `openapi()` calls this once at
 * wiring; call it yourself to write the document to a file (e.g. in CI).
 *
 * @param catalogue the app's route catalogue (`app.catalogue` after `start()`, or `onWired`'s argument)
 * @param options title, version and the rest of the document's top level
 * @example
 * await app.start();
 * writeFileSync('openapi.json', JSON.stringify(buildDocument(app.catalogue, { title: 'Demo', version: '1.0.0' })));
 */
export function buildDocument(catalogue: RouteCatalogue, options: DocumentOptions): OpenAPIDocument {
  return new DocumentBuilder(catalogue, options).build();
}

class DocumentBuilder {
  readonly #registry = new SchemaRegistry();
  readonly #errors: ErrorDocs;
  readonly #tags = new Map<string, { description: string | undefined; where: string }>();
  readonly #operationIds = new Map<string, string>();
  readonly #schemes = new Map<string, { object: Record<string, unknown>; json: string; where: string }>();
  readonly #errorResponses = new Map<string, Record<string, unknown>>();
  readonly #rendered = new WeakMap<object, { object: Record<string, unknown>; json: string }>();
  readonly #v32: boolean;

  constructor(
    private readonly catalogue: RouteCatalogue,
    private readonly options: DocumentOptions,
  ) {
    this.#errors = new ErrorDocs(this.#registry, options.errorAdapter);
    this.#v32 = options.openapiVersion === '3.2.0';
  }

  build(): OpenAPIDocument {
    const opts = this.options;
    for (const tag of opts.tags ?? []) this.#tag(tag, 'openapi({ tags })');
    const paths: Record<string, Record<string, unknown>> = {};
    for (const route of this.catalogue.routes) {
      if (route.hidden || route.kind !== 'operation') continue;
      const item = (paths[route.path] ??= {});
      item[route.method.toLowerCase()] = this.#operation(route);
    }
    const schemas: Record<string, JsonSchema> = this.#registry.finish();
    for (const [name, schema] of this.#errors.components) {
      if (name in schemas) {
        fail(
          'openapi',
          `a model is named "${name}", which is also the Problem component of an error class`,
          `rename the model (Struct('${name.replace(/Problem$/, 'Body')}', …) or { name })`,
        );
      }
      schemas[name] = schema;
    }
    const info: Record<string, unknown> = { title: opts.title, version: opts.version };
    if (opts.description !== undefined) info.description = opts.description;
    const doc: Record<string, unknown> = { openapi: this.#v32 ? '3.2.0' : '3.1.0', info };
    // OpenAPI's default is one server at '/'; written out, because linters expect `servers`.
    const servers = opts.servers && opts.servers.length > 0 ? opts.servers : ['/'];
    doc.servers = servers.map((s) =>
      typeof s === 'string' ? { url: s } : s.description === undefined ? { url: s.url } : { ...s },
    );
    if (this.#tags.size > 0) {
      doc.tags = [...this.#tags].map(([name, t]) =>
        t.description === undefined ? { name } : { name, description: t.description },
      );
    }
    doc.paths = paths;
    const components: Record<string, unknown> = {};
    const names = Object.keys(schemas).sort();
    if (names.length > 0) components.schemas = Object.fromEntries(names.map((n) => [n, schemas[n]]));
    if (this.#schemes.size > 0) {
      components.securitySchemes = Object.fromEntries([...this.#schemes].map(([k, s]) => [k, s.object]));
    }
    if (Object.keys(components).length > 0) doc.components = components;
    return doc as OpenAPIDocument;
  }

  #tag(tag: string | Tag, where: string): string {
    const name = typeof tag === 'string' ? tag : tag.name;
    const description = typeof tag === 'string' ? undefined : tag.description;
    if (typeof name !== 'string' || name === '') {
      fail(where, `a tag has no name`, `use a non-empty string or new Tag('name', 'description')`);
    }
    const prior = this.#tags.get(name);
    if (!prior) this.#tags.set(name, { description, where });
    else if (description !== undefined) {
      if (prior.description === undefined) this.#tags.set(name, { description, where });
      else if (prior.description !== description) {
        fail(
          where,
          `tag "${name}" is described two ways (${JSON.stringify(prior.description)} in ${prior.where}, ${JSON.stringify(description)} here)`,
          `describe it once (one shared Tag object), or use the bare name '${name}' elsewhere`,
        );
      }
    }
    return name;
  }

  #operation(route: RouteInfo): Record<string, unknown> {
    const where = `${route.owner}.${route.operation}`;
    const spec = route.spec ?? {};
    const meta: OperationMeta = spec.meta ?? {};
    const classMeta: RouteMeta = route.classMeta ?? {};
    const op: Record<string, unknown> = {};

    const classTags = (classMeta.tags ?? []).map((t) => this.#tag(t, `${route.owner} meta`));
    const opTags = (meta.tags ?? []).map((t) => this.#tag(t, `${where} meta`));
    const tags = meta.replaceTags && opTags.length > 0 ? opTags : [...new Set([...classTags, ...opTags])];
    if (tags.length > 0) op.tags = tags;
    const summary = meta.summary ?? classMeta.summary;
    if (summary !== undefined) op.summary = summary;
    const description = meta.description ?? classMeta.description;
    if (description !== undefined) op.description = description;

    const operationId = meta.operationId ?? `${route.owner}_${route.operation}`;
    if (typeof operationId !== 'string' || operationId === '') {
      fail(where, 'meta.operationId is empty', 'give a non-empty operationId or leave it out');
    }
    const taken = this.#operationIds.get(operationId);
    if (taken !== undefined) {
      fail(
        where,
        `operationId "${operationId}" is already used by ${taken}`,
        `give one of them a unique meta: { operationId: '…' }`,
      );
    }
    this.#operationIds.set(operationId, where);
    op.operationId = operationId;

    const parameters = this.#parameters(route);
    if (parameters.length > 0) op.parameters = parameters;
    const body = this.#requestBody(route, where);
    if (body) op.requestBody = body;
    op.responses = this.#responses(route, where, classMeta, meta);
    if (meta.deprecated === true) op.deprecated = true;
    op.security = this.#security(route, where);
    return op;
  }

  #parameters(route: RouteInfo): JsonSchema[] {
    const spec = route.spec ?? {};
    const out: JsonSchema[] = [];
    const pathEntries = spec.path ? (objectEntries(spec.path) ?? {}) : {};
    for (const slot of parseTemplate(route.path).slots) {
      const field = pathEntries[slot];
      out.push({
        name: slot,
        in: 'path',
        required: true,
        schema: field ? this.#registry.inline(field) : { type: 'string' },
      });
    }
    const add = (source: unknown, location: 'query' | 'header' | 'cookie'): void => {
      if (!source) return;
      const entries = objectEntries(source as SchemaNode) ?? {};
      for (const [key, field] of Object.entries(entries)) {
        const name = location === 'header' ? toHeaderName(key) : key;
        if (location === 'header' && IGNORED_HEADERS.has(name)) continue;
        out.push({ name, in: location, required: !isOptional(field), schema: this.#registry.inline(field) });
      }
    };
    add(spec.params, 'query');
    add(spec.headers, 'header');
    add(spec.cookies, 'cookie');
    return out;
  }

  #requestBody(route: RouteInfo, where: string): JsonSchema | undefined {
    const spec = route.spec ?? {};
    if (spec.json) {
      const schema = spec.json as unknown as SchemaNode;
      return {
        required: !isOptional(schema),
        content: { 'application/json': { schema: this.#registry.model(schema, where) } },
      };
    }
    if (spec.form) {
      // Inlined: part markers document as their value schema (files as binary strings).
      return {
        required: true,
        content: { 'multipart/form-data': { schema: this.#registry.inline(spec.form) } },
      };
    }
    if (spec.content) {
      return { required: true, content: { 'application/octet-stream': { schema: { ...BINARY } } } };
    }
    return undefined;
  }

  #responses(
    route: RouteInfo,
    where: string,
    classMeta: RouteMeta,
    meta: OperationMeta,
  ): Record<string, unknown> {
    const acc = new Map<number, ResponseAcc>();
    const slot = (status: number): ResponseAcc => {
      let r = acc.get(status);
      if (!r) {
        r = { descriptions: [], content: new Map(), itemSchemas: new Map(), headers: undefined };
        acc.set(status, r);
      }
      return r;
    };
    const pushDescription = (r: ResponseAcc, d: string): void => {
      if (!r.descriptions.includes(d)) r.descriptions.push(d);
    };

    for (const info of route.responses) this.#success(info, route, where, slot, pushDescription);

    const spec = route.spec ?? {};
    const derived: ErrorClass[] = [];
    if (spec.json || spec.form || spec.params || spec.headers || spec.cookies)
      derived.push(MalformedRequestError);
    if (route.facts.get('auth') !== undefined) derived.push(AuthenticationRequiredError);
    if (spec.path) derived.push(NotFoundError);
    if (spec.json || spec.form || spec.content) derived.push(PayloadTooLargeError);
    if (spec.json || spec.form) derived.push(UnsupportedMediaTypeError, ValidationFailedError);
    derived.push(InternalServerError);
    const errors = new Map<number, ErrorDoc[]>();
    const addError = (cls: ErrorClass): void => {
      const doc = this.#errors.doc(cls, where);
      const list = errors.get(doc.status);
      if (!list) errors.set(doc.status, [doc]);
      else if (!list.includes(doc)) list.push(doc);
    };
    for (const cls of derived) addError(cls);
    for (const cls of classMeta.exceptions ?? []) addError(cls);
    for (const cls of meta.exceptions ?? []) addError(cls);

    const explicit: Record<string, ResponseDoc> = {
      ...(classMeta.responses ?? {}),
      ...(meta.responses ?? {}),
    };
    const overrides = new Map<number, JsonSchema>();
    for (const [key, doc] of Object.entries(explicit)) {
      const status = Number(key);
      if (!Number.isInteger(status) || status < 100 || status > 599) {
        fail(where, `meta.responses has status "${key}"`, 'use an HTTP status from 100 to 599 as the key');
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
          content[mediaType] = media;
        }
        response.content = content;
      }
      out[String(status)] = response;
    }
    return out;
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
    pushDescription: (r: ResponseAcc, d: string) => void,
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
      info.schema ? this.#registry.model(info.schema, where, true) : undefined;
    switch (info.kind) {
      case 'empty':
        return;
      case 'json':
        add(info.contentType ?? 'application/json', schemaOf() ?? {});
        return;
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

  #security(route: RouteInfo, where: string): Record<string, string[]>[] {
    const facts = route.facts.get('auth') as Partial<SecurityFacts> | undefined;
    // No authenticator: say so explicitly (`security: []`), as linters expect.
    if (facts === undefined) return [];
    const scheme = facts.scheme;
    if (
      !scheme ||
      typeof scheme !== 'object' ||
      typeof scheme.schemeName !== 'string' ||
      typeof scheme.toOpenapi !== 'function'
    ) {
      fail(
        where,
        `the mount's authenticator advertises an openapiSecurity that is not a SecurityScheme`,
        'use SecurityScheme.httpBearer(), SecurityScheme.httpBasic() or SecurityScheme.apiKey({ name, location }) from @api/auth',
      );
    }
    let rendered = this.#rendered.get(scheme);
    if (!rendered) {
      const object = scheme.toOpenapi();
      rendered = { object, json: JSON.stringify(object) };
      this.#rendered.set(scheme, rendered);
    }
    const { object, json } = rendered;
    const prior = this.#schemes.get(scheme.schemeName);
    if (prior && prior.json !== json) {
      fail(
        where,
        `security scheme "${scheme.schemeName}" is declared two ways (${prior.json} by ${prior.where}, ${json} here)`,
        `give one of them its own schemeName, e.g. SecurityScheme.apiKey({ …, schemeName: '${scheme.schemeName}2' })`,
      );
    }
    if (!prior) this.#schemes.set(scheme.schemeName, { object, json, where });
    const requirement = [{ [scheme.schemeName]: [] as string[] }];
    return facts.anonymous ? [...requirement, {}] : requirement;
  }
}
