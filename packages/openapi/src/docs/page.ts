/** The Content-Security-Policy of the generated docs page (DECISIONS.md, "OpenAPI"). */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'";

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * The URL of `to` relative to the page at `from` (both absolute paths), so the page keeps
 * working behind a proxy that mounts the app under a prefix (`/api/docs` → `./openapi.json`).
 */
export function relativeUrl(from: string, to: string): string {
  const fromDir = from.split('/').slice(1, -1);
  const target = to.split('/').slice(1);
  let common = 0;
  while (common < fromDir.length && common < target.length - 1 && fromDir[common] === target[common])
    common++;
  const up = fromDir.length - common;
  const rest = target.slice(common).join('/');
  return (up === 0 ? './' : '../'.repeat(up)) + rest;
}

/** What a generated docs page shows and loads. */
export interface DocsPageInput {
  readonly title: string;
  readonly description: string | undefined;
  /** The document URL, relative to the page. */
  readonly documentUrl: string;
  /** Same-origin scripts to load in order (the setup script, then the vendored bundle), relative to the page. */
  readonly scriptUrls: readonly string[];
  /** `<link rel="icon">` href (`data:,` suppresses the browser's /favicon.ico request). */
  readonly faviconHref: string;
  /** Scalar's configuration (offline keys included). */
  readonly configuration: Readonly<Record<string, unknown>>;
}

/**
 * Renders the docs page: no inline script (the CSP forbids it); Scalar reads the document URL
 * from `data-url` and its configuration from `data-configuration`. Every interpolated value is
 * HTML-escaped.
 */
export function renderDocsPage(input: DocsPageInput): string {
  const description =
    input.description === undefined
      ? ''
      : `\n    <meta name="description" content="${escapeHtml(input.description)}">`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(input.title)}</title>${description}
    <link rel="icon" href="${escapeHtml(input.faviconHref)}">
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The OpenAPI document is at <a href="${escapeHtml(input.documentUrl)}">${escapeHtml(input.documentUrl)}</a>.</noscript>
    <script id="api-reference" type="application/json" data-url="${escapeHtml(input.documentUrl)}" data-configuration="${escapeHtml(JSON.stringify(input.configuration))}"></script>
${input.scriptUrls.map((url) => `    <script src="${escapeHtml(url)}"></script>\n`).join('')}  </body>
</html>
`;
}
