import { Tag, type ErrorBodyAdapter, type OperationMeta, type RouteMeta } from '@api/core';
import { wiringError, type RouteCatalogue, type RouteInfo } from '@api/core/extension';
import { ErrorDocs } from './errors';
import type { JsonSchema } from './json-schema';
import { opaqueOperations, opaquePath } from './opaque-prefix';
import { parametersOf, requestBodyOf } from './parameters';
import { ResponseDocs } from './responses';
import { SchemaRegistry } from './schemas';
import { SecuritySchemes } from './security';

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
  /** Prefix routes (`mountFetch`): left out (`'skip'`, default) or listed as opaque operations. */
  readonly prefixRoutes?: 'skip' | 'opaque' | undefined;
}

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

/**
 * One document build: the top level, tags and operation ids here; parameters, responses and
 * security schemes in their own files (`parameters.ts`, `responses.ts`, `security.ts`).
 */
class DocumentBuilder {
  readonly #registry = new SchemaRegistry();
  readonly #errors: ErrorDocs;
  readonly #responses: ResponseDocs;
  readonly #security = new SecuritySchemes();
  readonly #tags = new Map<string, { description: string | undefined; where: string }>();
  readonly #operationIds = new Map<string, string>();
  readonly #v32: boolean;

  constructor(
    private readonly catalogue: RouteCatalogue,
    private readonly options: DocumentOptions,
  ) {
    this.#errors = new ErrorDocs(this.#registry, options.errorAdapter);
    this.#v32 = options.openapiVersion === '3.2.0';
    this.#responses = new ResponseDocs(this.#registry, this.#errors, this.#v32);
  }

  build(): OpenAPIDocument {
    const opts = this.options;
    for (const tag of opts.tags ?? []) this.#tag(tag, 'openapi({ tags })');
    const paths: Record<string, Record<string, unknown>> = {};
    const opaque = opts.prefixRoutes === 'opaque';
    for (const route of this.catalogue.routes) {
      if (route.hidden) continue;
      if (route.kind === 'prefix') {
        if (opaque) this.#prefixOperations(route, paths);
        continue;
      }
      if (route.kind !== 'operation' && !(route.kind === 'custom' && declaresAnswers(route))) continue;
      const item = (paths[route.path] ??= {});
      item[route.method.toLowerCase()] = this.#operation(route);
    }
    const schemas: Record<string, JsonSchema> = this.#registry.finish();
    for (const [name, schema] of this.#errors.components) {
      if (name in schemas) {
        throw wiringError(
          'API_WIRING_OPENAPI_CONFLICT',
          'openapi',
          name.endsWith('Problem')
            ? `a model is named "${name}", which is also the Problem component of an error class`
            : `a model is named "${name}", which is also the component of the StructHTTPError class ${name}`,
          name.endsWith('Problem')
            ? `rename the model (Struct('${name.replace(/Problem$/, 'Body')}', …) or { name })`
            : `rename the model (Struct('${name}Body', …) or { name }), or the error class`,
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
    const securitySchemes = this.#security.components();
    if (securitySchemes) components.securitySchemes = securitySchemes;
    if (Object.keys(components).length > 0) doc.components = components;
    return doc as OpenAPIDocument;
  }

  #tag(tag: string | Tag, where: string): string {
    const name = typeof tag === 'string' ? tag : tag.name;
    const description = typeof tag === 'string' ? undefined : tag.description;
    if (typeof name !== 'string' || name === '') {
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `a tag has no name`,
        `use a non-empty string or new Tag('name', 'description')`,
      );
    }
    const prior = this.#tags.get(name);
    if (!prior) this.#tags.set(name, { description, where });
    else if (description !== undefined) {
      if (prior.description === undefined) this.#tags.set(name, { description, where });
      else if (prior.description !== description) {
        throw wiringError(
          'API_WIRING_OPENAPI_CONFLICT',
          where,
          `tag "${name}" is described two ways (${JSON.stringify(prior.description)} in ${prior.where}, ${JSON.stringify(description)} here)`,
          `describe it once (one shared Tag object), or use the bare name '${name}' elsewhere`,
        );
      }
    }
    return name;
  }

  #claimOperationId(operationId: string, where: string): void {
    const taken = this.#operationIds.get(operationId);
    if (taken !== undefined) {
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `operationId "${operationId}" is already used by ${taken}`,
        `give one of them a unique meta: { operationId: '…' }`,
      );
    }
    this.#operationIds.set(operationId, where);
  }

  /** A prefix route as opaque operations (`prefixRoutes: 'opaque'`): see `opaque-prefix.ts`. */
  #prefixOperations(route: RouteInfo, paths: Record<string, Record<string, unknown>>): void {
    const where = `${route.owner} (${route.path}/…)`;
    const tag = this.#tag(route.owner, where);
    for (const [method, op] of opaqueOperations(route, tag)) {
      this.#claimOperationId(op.operationId, where);
      op.security = this.#security.requirement(route, where);
      (paths[opaquePath(route.path)] ??= {})[method] = op;
    }
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

    const declared = meta.operationId ?? `${route.owner}_${route.operation}`;
    if (typeof declared !== 'string' || declared === '') {
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        'meta.operationId is empty',
        'give a non-empty operationId or leave it out',
      );
    }
    // A class mounted under a prefix (`/v1`) gets it as a suffix, so mounting it twice stays unique.
    const operationId =
      route.mountPrefix === undefined ? declared : `${declared}_${prefixId(route.mountPrefix)}`;
    this.#claimOperationId(operationId, where);
    op.operationId = operationId;

    const parameters = parametersOf(route, this.#registry);
    if (parameters.length > 0) op.parameters = parameters;
    const body = requestBodyOf(route, this.#registry, where);
    if (body) op.requestBody = body;
    op.responses = this.#responses.of(route, where, classMeta, meta);
    if (meta.deprecated === true) op.deprecated = true;
    op.security = this.#security.requirement(route, where);
    return op;
  }
}

/**
 * True for an extension route that declares what it answers (`responses`, or `classMeta.responses`,
 * e.g. core's health probes with `health.document`): listed like an operation unless hidden.
 */
function declaresAnswers(route: RouteInfo): boolean {
  return route.responses.length > 0 || Object.keys(route.classMeta?.responses ?? {}).length > 0;
}

/** A mount prefix as an operationId part: `/api/v2` → `api_v2`. */
function prefixId(prefix: string): string {
  return prefix
    .slice(1)
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}
