import {
  defineExtension,
  type Exchange,
  type Extension,
  type RouteCatalogue,
  type Wiring,
} from '@api/core/extension';
import { buildDocument, type OpenAPIServer } from './document/build';
import { readFavicon } from './docs/favicon';
import { DOCS_CSP, relativeUrl, renderDocsPage } from './docs/page';
import { SCALAR_SHA256, SCALAR_VERSION, scalarBundle } from './docs/scalar';
import { scalarConfiguration } from './docs/scalar-config';
import { precompute, sendPrecomputed, type Precomputed } from './http/precomputed';
import { resolveOptions, type OpenAPIOptions } from './options';

const NOSNIFF = ['x-content-type-options', 'nosniff'] as const;
const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SCALAR_SETUP =
  'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });\n';

/** The app environment's public origin (`APP_BASE_URL`), without a trailing slash, or ''. */
function baseUrl(env: Readonly<Record<string, string | undefined>>): string {
  const base = env.APP_BASE_URL?.trim();
  if (!base) return '';
  try {
    const url = new URL(base);
    return (url.origin + url.pathname).replace(/\/+$/, '');
  } catch {
    return '';
  }
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the app's OpenAPI 3.1 document and an offline Scalar docs page. The document is built
 * once, when wiring finishes, from the route catalogue; requests get a precomputed buffer
 * (strong ETag, gzip/brotli variants, 304).
 *
 * @param options title and version (required), paths, servers, tags, docs page settings
 * @example
 * class App extends BaseApp {
 *   protected override async wire() {
 *     this.includeResource(new WidgetResource(store), { auth: tokenAuth });
 *     this.include(openapi({ title: 'Widgets API', version: '1.0.0' }));
 *   }
 * }
 */
export function openapi(options: OpenAPIOptions): Extension<void> {
  return defineExtension({
    name: 'openapi',
    setup(wiring: Wiring) {
      const o = resolveOptions(options);
      const env = baseUrl(wiring.env);
      const servers: readonly (string | OpenAPIServer)[] | undefined =
        o.servers ?? (env ? [{ url: env }] : undefined);
      // `ownHeaders`: what each answer sets itself, so an app-wide header block (e.g. @api/secure-headers)
      // never sends a second CSP, nosniff or referrer-policy beside the page's own.
      const route = (
        path: string,
        operation: string,
        handle: (ex: Exchange) => void,
        ownHeaders: readonly string[] = [NOSNIFF[0]],
      ): void =>
        wiring.addRoute({
          method: 'GET',
          path,
          owner: 'openapi',
          operation,
          hidden: true,
          handle,
          ownHeaders,
        });

      let document: Precomputed | undefined;
      route(o.openapiPath, 'document', (ex) => sendPrecomputed(ex, document!));

      const faviconFile =
        typeof o.favicon === 'object' && o.favicon !== null ? readFavicon(o.favicon.file) : undefined;
      if (faviconFile) {
        const headers: [string, string][] = [[...NOSNIFF]];
        // An SVG opened directly is a document: it must not run scripts on this origin.
        if (faviconFile.contentType === 'image/svg+xml') {
          headers.push(['content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox"]);
        }
        const icon = precompute(faviconFile.body, {
          contentType: faviconFile.contentType,
          cacheControl: 'public, max-age=86400',
          headers,
          compress: faviconFile.contentType === 'image/svg+xml',
        });
        route('/favicon.ico', 'favicon', (ex) => sendPrecomputed(ex, icon), [
          NOSNIFF[0],
          'content-security-policy',
        ]);
      }

      if (o.docsPath !== null) {
        const docsPath = o.docsPath;
        const scriptPath = `${docsPath.replace(/\/+$/, '')}/scalar/${SCALAR_VERSION}/standalone.js`;
        const bundle = scalarBundle();
        const script = precompute(bundle.js, {
          contentType: 'text/javascript; charset=utf-8',
          cacheControl: IMMUTABLE,
          headers: [[...NOSNIFF]],
          etag: `"${SCALAR_SHA256.slice(0, 32)}"`,
          compress: { gzip: bundle.gzip, br: bundle.br },
        });
        route(scriptPath, 'scalar', (ex) => sendPrecomputed(ex, script));
        // Runs before the bundle: the zod inside Scalar probes `new Function('')` to pick a JIT
        // parser, which `script-src 'self'` refuses (a CSP violation report); jitless skips the probe.
        const setupPath = `${docsPath.replace(/\/+$/, '')}/scalar/${SCALAR_VERSION}/setup.js`;
        const setup = precompute(Buffer.from(SCALAR_SETUP), {
          contentType: 'text/javascript; charset=utf-8',
          cacheControl: REVALIDATE,
          headers: [[...NOSNIFF]],
          compress: false,
        });
        route(setupPath, 'scalar-setup', (ex) => sendPrecomputed(ex, setup));

        let page: Precomputed;
        if (o.docsHtml !== undefined) {
          page = precompute(Buffer.from(o.docsHtml), {
            contentType: 'text/html; charset=utf-8',
            cacheControl: REVALIDATE,
            headers: [[...NOSNIFF]],
          });
        } else {
          let faviconHref = 'data:,';
          let csp = DOCS_CSP;
          if (faviconFile) faviconHref = relativeUrl(docsPath, '/favicon.ico');
          else if (typeof o.favicon === 'string') {
            faviconHref = o.favicon;
            const origin = originOf(o.favicon);
            if (origin) csp = csp.replace("img-src 'self' data:", `img-src 'self' data: ${origin}`);
          }
          const html = renderDocsPage({
            title: o.title,
            description: o.description,
            documentUrl: relativeUrl(docsPath, o.openapiPath),
            scriptUrls: [relativeUrl(docsPath, setupPath), relativeUrl(docsPath, scriptPath)],
            faviconHref,
            configuration: scalarConfiguration(o.scalarConfig),
          });
          page = precompute(Buffer.from(html), {
            contentType: 'text/html; charset=utf-8',
            cacheControl: REVALIDATE,
            headers: [['content-security-policy', csp], [...NOSNIFF], ['referrer-policy', 'no-referrer']],
          });
        }
        route(docsPath, 'docs', (ex) => sendPrecomputed(ex, page), [
          'content-security-policy',
          NOSNIFF[0],
          'referrer-policy',
        ]);
      }

      wiring.onWired((catalogue: RouteCatalogue) => {
        const doc = buildDocument(catalogue, {
          title: o.title,
          version: o.version,
          description: o.description,
          servers,
          tags: o.tags,
          openapiVersion: o.openapiVersion,
          prefixRoutes: o.prefixRoutes,
          errorAdapter: catalogue.errorAdapter,
        });
        document = precompute(Buffer.from(JSON.stringify(doc)), {
          contentType: 'application/json',
          cacheControl: REVALIDATE,
          headers: [[...NOSNIFF]],
          // gzip only: brotli over a large generated document is the slowest step of wiring.
          compress: 'gzip',
        });
        wiring.log.info(
          o.docsPath === null
            ? `Serving OpenAPI spec at ${env}${o.openapiPath}`
            : `Serving API docs at ${env}${o.docsPath}`,
        );
      });
    },
  });
}
