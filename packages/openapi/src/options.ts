import { checkKnownKeys, wiringError } from '@api/core/extension';
import type { Tag } from '@api/core';
import type { OpenAPIServer } from './document/build';
import { checkScalarConfig, type ScalarConfig } from './docs/scalar-config';

/** Options of `openapi()` (the spec's `_include_openapi`). */
export interface OpenAPIOptions {
  /** The API's title (`info.title`, and the docs page's `<title>`). Required. */
  readonly title: string;
  /** The described API's version string (`info.version`). Required. */
  readonly version: string;
  /** `info.description` (Markdown); also the docs page's meta description. */
  readonly description?: string;
  /** Where the document is served. Default `/openapi.json`. */
  readonly openapiPath?: string;
  /** Where the docs page is served; `null` serves no page. Default `/docs`. */
  readonly docsPath?: string | null;
  /** `servers` entries (a URL string or `{ url, description }`). Default: `APP_BASE_URL` when set, else none. */
  readonly servers?: readonly (string | OpenAPIServer)[];
  /** Document-level tags, listed first (a name, or a `Tag` with a description). */
  readonly tags?: readonly (string | Tag)[];
  /** Serve this HTML verbatim as the docs page instead of the generated one (`scalarConfig` is then unused). */
  readonly docsHtml?: string;
  /**
   * A URL string (`https://…`, `data:…`) linked verbatim from the generated page, or
   * `{ file }` (an .ico, .png or .svg) served at `/favicon.ico`.
   */
  readonly favicon?: string | { readonly file: string | URL };
  /** Typed Scalar settings for the generated page (only the fields you set are sent). */
  readonly scalarConfig?: ScalarConfig;
  /** `3.1.0` (default), or `3.2.0` to document stream items with `itemSchema`. */
  readonly openapiVersion?: '3.1.0' | '3.2.0';
  /**
   * Prefix routes (a handler mounted with `mountFetch`, e.g. Better Auth at `/api/auth`):
   * `'skip'` leaves them out; `'opaque'` lists each as one operation per method at
   * `<prefix>/{path}`, with no schemas (its operations are the mounted library's own). Default
   * `'skip'`.
   */
  readonly prefixRoutes?: 'skip' | 'opaque';
}

/** Options after validation, with defaults applied. */
export interface ResolvedOptions {
  readonly title: string;
  readonly version: string;
  readonly description: string | undefined;
  readonly openapiPath: string;
  readonly docsPath: string | null;
  readonly servers: readonly (string | OpenAPIServer)[] | undefined;
  readonly tags: readonly (string | Tag)[];
  readonly docsHtml: string | undefined;
  readonly favicon: string | { readonly file: string | URL } | undefined;
  readonly scalarConfig: ScalarConfig;
  readonly openapiVersion: '3.1.0' | '3.2.0';
  readonly prefixRoutes: 'skip' | 'opaque';
}

const KNOWN = new Set([
  'title',
  'version',
  'description',
  'openapiPath',
  'docsPath',
  'servers',
  'tags',
  'docsHtml',
  'favicon',
  'scalarConfig',
  'openapiVersion',
  'prefixRoutes',
]);
const WHERE = 'openapi()';
const EXACT_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

function checkPath(name: string, value: unknown): string {
  if (typeof value !== 'string' || !EXACT_PATH.test(value) || value.includes('//')) {
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      WHERE,
      `${name} ${JSON.stringify(value)} is not an exact path`,
      `use a path like '/openapi.json' (starts with "/", no {slots}, query or spaces)`,
    );
  }
  return value;
}

/** Validates `openapi()` options; every mistake is a `WiringError` naming the option and the fix. */
export function resolveOptions(options: OpenAPIOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      'options are missing',
      "pass { title: 'My API', version: '1.0.0' }",
    );
  }
  checkKnownKeys(WHERE, options, [...KNOWN]);
  if (typeof options.title !== 'string' || options.title.trim() === '') {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      'title is required',
      "pass { title: 'My API', version: '1.0.0' }",
    );
  }
  if (typeof options.version !== 'string' || options.version.trim() === '') {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      'version is required (the API version string)',
      "pass { title: 'My API', version: '1.0.0' }",
    );
  }
  if (options.description !== undefined && typeof options.description !== 'string') {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      'description is not a string',
      'pass a (Markdown) string or leave it out',
    );
  }
  const openapiPath = checkPath('openapiPath', options.openapiPath ?? '/openapi.json');
  const docsPath = options.docsPath === null ? null : checkPath('docsPath', options.docsPath ?? '/docs');
  if (docsPath !== null && docsPath === openapiPath) {
    throw wiringError(
      'API_WIRING_DUPLICATE_ROUTE',
      WHERE,
      `docsPath and openapiPath are both ${JSON.stringify(docsPath)}`,
      'give them different paths',
    );
  }
  for (const server of options.servers ?? []) {
    const url = typeof server === 'string' ? server : (server as Partial<OpenAPIServer> | null)?.url;
    if (typeof url !== 'string' || url === '') {
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        WHERE,
        `a servers entry has no url (${JSON.stringify(server)})`,
        "use 'https://api.example.com' or { url, description }",
      );
    }
  }
  for (const tag of options.tags ?? []) {
    const name = typeof tag === 'string' ? tag : (tag as Partial<Tag> | null)?.name;
    if (typeof name !== 'string' || name === '') {
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        WHERE,
        'a tags entry has no name',
        "use 'name' or new Tag('name', 'description')",
      );
    }
  }
  if (options.docsHtml !== undefined && typeof options.docsHtml !== 'string') {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      'docsHtml is not a string',
      'pass the whole HTML page as a string',
    );
  }
  const favicon = options.favicon;
  if (favicon !== undefined) {
    const ok =
      (typeof favicon === 'string' && favicon !== '') ||
      (typeof favicon === 'object' &&
        favicon !== null &&
        (typeof favicon.file === 'string' || favicon.file instanceof URL));
    if (!ok) {
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        WHERE,
        `favicon ${JSON.stringify(favicon)} is neither a URL string nor { file }`,
        "pass 'https://…/icon.png' (linked) or { file: './favicon.svg' } (served at /favicon.ico)",
      );
    }
    if (typeof favicon === 'object' && (openapiPath === '/favicon.ico' || docsPath === '/favicon.ico')) {
      throw wiringError(
        'API_WIRING_DUPLICATE_ROUTE',
        WHERE,
        'a favicon file is served at /favicon.ico, which is also openapiPath or docsPath',
        'move that path',
      );
    }
  }
  const bad = checkScalarConfig(options.scalarConfig);
  if (bad) throw wiringError(bad.code, WHERE, bad.problem, bad.fix);
  const version = options.openapiVersion ?? '3.1.0';
  if (version !== '3.1.0' && version !== '3.2.0') {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      `openapiVersion ${JSON.stringify(version)} is not supported`,
      "use '3.1.0' (default) or '3.2.0'",
    );
  }
  const prefixRoutes = options.prefixRoutes ?? 'skip';
  if (prefixRoutes !== 'skip' && prefixRoutes !== 'opaque') {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      WHERE,
      `prefixRoutes ${JSON.stringify(prefixRoutes)} is neither 'skip' nor 'opaque'`,
      "use 'skip' (default: mounted handlers are left out) or 'opaque' (one schemaless operation per method)",
    );
  }
  return {
    title: options.title,
    version: options.version,
    description: options.description,
    openapiPath,
    docsPath,
    servers: options.servers,
    tags: options.tags ?? [],
    docsHtml: options.docsHtml,
    favicon,
    scalarConfig: options.scalarConfig ?? {},
    openapiVersion: version,
    prefixRoutes,
  };
}
