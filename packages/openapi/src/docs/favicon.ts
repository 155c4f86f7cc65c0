import { wiringError } from '@api/core/extension';
import { readFileSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The media types of the favicon suffixes the spec allows (`mime-types` names, as @api/assets). */
export const FAVICON_TYPES: Readonly<Record<string, string>> = {
  '.ico': 'image/vnd.microsoft.icon',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** A favicon file read at wiring. */
export interface FaviconFile {
  readonly path: string;
  readonly body: Buffer;
  readonly contentType: string;
}

/** Reads a favicon file now; a missing/unreadable file or another suffix is a `WiringError`. */
export function readFavicon(file: string | URL): FaviconFile {
  const where = 'openapi({ favicon })';
  let path: string;
  try {
    path = file instanceof URL ? fileURLToPath(file) : resolve(String(file));
  } catch {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `${String(file)} is not a file path or file: URL`,
      'pass { file: "./public/favicon.svg" } or { file: new URL("./favicon.svg", import.meta.url) }',
    );
  }
  const suffix = extname(path).toLowerCase();
  const contentType = FAVICON_TYPES[suffix];
  if (contentType === undefined) {
    throw wiringError(
      'API_WIRING_OPENAPI_FAVICON',
      where,
      `${path} has suffix "${suffix || '(none)'}"; a favicon is .ico, .png or .svg`,
      'convert it to one of those, or pass a URL string to link it instead',
    );
  }
  let body: Buffer;
  try {
    if (!statSync(path).isFile()) throw new Error('not a regular file');
    body = readFileSync(path);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw wiringError(
      'API_WIRING_OPENAPI_FAVICON',
      where,
      `cannot read favicon file ${path} (${reason})`,
      'point { file } at an existing, readable .ico, .png or .svg file',
    );
  }
  return { path, body, contentType };
}
