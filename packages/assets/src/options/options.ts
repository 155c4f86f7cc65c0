import { validateHeaderValue } from 'node:http';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wiringError } from '@api/core/extension';

/**
 * Options of {@link assets}: where the files come from — a `directory` read at wiring, or a `files`
 * map (for runtimes without a file system, such as Cloudflare Workers behind `app.fetch`) — and how
 * they are served. Every other field is optional; `undefined` means the default.
 *
 * @example
 * const options: AssetsOptions = { directory: new URL('./public', import.meta.url), cacheControl: 'public, max-age=300' };
 * const inMemory: AssetsOptions = { files: { 'index.html': '<h1>Hi</h1>', 'logo.png': pngBytes } };
 */
export type AssetsOptions = AssetsFromDirectory | AssetsFromFiles;

/** {@link AssetsOptions} serving a directory (read once, at wiring; needs a file system). */
export interface AssetsFromDirectory extends AssetsServing {
  /** The directory to serve: a path (relative to the working directory) or a `file:` URL. Read once, at wiring. */
  readonly directory: string | URL;
  readonly files?: undefined;
}

/** {@link AssetsOptions} serving files given in memory (works on every transport, `app.fetch` included). */
export interface AssetsFromFiles extends AssetsServing {
  /**
   * The files to serve: `/`-separated path relative to `path` → content (a string is sent as UTF-8).
   * Copied at wiring. Paths have no empty, `.`, `..` or dot-prefixed segments.
   */
  readonly files: Readonly<Record<string, string | Uint8Array>>;
  readonly directory?: undefined;
}

/** How {@link assets} serves its files, whichever their source. */
export interface AssetsServing {
  /** The URL prefix the files are served under. [`'/assets'`] */
  readonly path?: string | undefined;
  /** `fnmatch` globs matched against each file's path relative to `directory`; `*` also crosses `/`. [`['*']`] */
  readonly include?: readonly string[] | undefined;
  /** Globs of files to leave out (same syntax); exclude wins over include. [`[]`] */
  readonly exclude?: readonly string[] | undefined;
  /** Keep a gzip copy of text-like files when it is under 90% of the original. [`true`] */
  readonly gzip?: boolean | undefined;
  /** Also keep a brotli copy (quality 5) of text-like files under 90% of the original and smaller than the gzip copy. [`false`] */
  readonly brotli?: boolean | undefined;
  /** A `cache-control` value sent verbatim on every 200 and 304. [none] */
  readonly cacheControl?: string | undefined;
  /** The most files that may match. [`10000`] */
  readonly maxFiles?: number | undefined;
  /** The most bytes held in memory, compressed copies included. [`10485760` (10 MiB)] */
  readonly maxTotalBytes?: number | undefined;
}

/** The defaults of {@link AssetsOptions}, as the spec gives them. */
export const assetsDefaults: {
  readonly path: '/assets';
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly gzip: true;
  readonly brotli: false;
  readonly maxFiles: 10000;
  readonly maxTotalBytes: 10485760;
} = Object.freeze({
  path: '/assets',
  include: Object.freeze(['*']),
  exclude: Object.freeze([]),
  gzip: true,
  brotli: false,
  maxFiles: 10000,
  maxTotalBytes: 10485760,
});

/** Where the files come from, after validation. */
export type AssetSource =
  /** `directory`: its absolute path as given (symlinks in it not yet resolved). */
  | { readonly kind: 'directory'; readonly directory: string }
  /** `files`: relative path → a copy of its bytes. */
  | { readonly kind: 'files'; readonly files: ReadonlyMap<string, Buffer> };

/** Options after validation: the source, normalised prefix, defaults filled in. */
export interface ResolvedOptions {
  readonly source: AssetSource;
  /** What the user wrote (the directory, or `the files map`), for messages. */
  readonly directoryLabel: string;
  /** The URL prefix without a trailing slash (`''` for `/`). */
  readonly prefix: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly gzip: boolean;
  readonly brotli: boolean;
  readonly cacheControl: string | undefined;
  readonly maxFiles: number;
  readonly maxTotalBytes: number;
}

const KNOWN = new Set([
  'directory',
  'files',
  'path',
  'include',
  'exclude',
  'gzip',
  'brotli',
  'cacheControl',
  'maxFiles',
  'maxTotalBytes',
]);
/** The spec's (Python) names, so a copied keyword gets a pointed fix. */
const SPEC_NAMES: Readonly<Record<string, string>> = {
  cache_control: 'cacheControl',
  max_files: 'maxFiles',
  max_total_bytes: 'maxTotalBytes',
};
/** A URL path segment as it may be written in a prefix: pchar only, no `{}` (slots are for routes). */
const PREFIX_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/;

/**
 * Validates the options of `assets()` and fills in the defaults.
 *
 * @param options what the user passed
 * @param where the call site named in messages
 */
export function resolveOptions(options: AssetsOptions, where: string): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'expects an options object',
      "write assets({ directory: './public' })",
    );
  }
  for (const key of Object.keys(options)) {
    if (KNOWN.has(key)) continue;
    const hint = SPEC_NAMES[key];
    throw wiringError(
      'API_WIRING_UNKNOWN_OPTION',
      where,
      `unknown option "${key}"`,
      hint ? `use "${hint}" (options are camelCase)` : `use only ${[...KNOWN].join(', ')}`,
    );
  }
  const { source, label } = resolveSource(options, where);

  const path = options.path ?? assetsDefaults.path;
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      where,
      `path ${JSON.stringify(path)} does not start with "/"`,
      "e.g. path: '/assets'",
    );
  }
  const prefix = path.endsWith('/') ? path.slice(0, -1) : path;
  for (const segment of prefix.split('/').slice(1)) {
    if (!PREFIX_SEGMENT.test(segment) || segment === '.' || segment === '..') {
      throw wiringError(
        'API_WIRING_INVALID_PATH',
        where,
        `path ${JSON.stringify(path)} has the segment ${JSON.stringify(segment)}, which is not a literal URL segment`,
        "use plain segments such as '/assets' or '/static/v2' (no '{slots}', '//', '.', '..', spaces or '?')",
      );
    }
  }

  const include = globList(options.include, 'include', assetsDefaults.include, where);
  const exclude = globList(options.exclude, 'exclude', assetsDefaults.exclude, where);
  const gzip = flag(options.gzip, 'gzip', assetsDefaults.gzip, where);
  const brotli = flag(options.brotli, 'brotli', assetsDefaults.brotli, where);

  const cacheControl = options.cacheControl;
  if (cacheControl !== undefined) {
    let valid = typeof cacheControl === 'string' && cacheControl.trim().length > 0;
    if (valid) {
      try {
        validateHeaderValue('cache-control', cacheControl);
      } catch {
        valid = false;
      }
    }
    if (!valid)
      throw wiringError(
        'API_WIRING_INVALID_HEADER',
        where,
        `cacheControl ${JSON.stringify(cacheControl)} is not a header value`,
        "pass a non-empty value without control characters, e.g. 'public, max-age=3600', or leave it out",
      );
  }

  const maxFiles = count(options.maxFiles, 'maxFiles', assetsDefaults.maxFiles, where);
  const maxTotalBytes = count(options.maxTotalBytes, 'maxTotalBytes', assetsDefaults.maxTotalBytes, where);
  return {
    source,
    directoryLabel: label,
    prefix,
    include,
    exclude,
    gzip,
    brotli,
    cacheControl,
    maxFiles,
    maxTotalBytes,
  };
}

/** `directory` or `files`, exactly one, checked. */
function resolveSource(options: AssetsOptions, where: string): { source: AssetSource; label: string } {
  const { directory, files } = options as { directory?: unknown; files?: unknown };
  if (directory !== undefined && files !== undefined) {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      'both "directory" and "files" are given',
      'pass one: directory to read files from disk at wiring, or files to serve a map held in memory',
    );
  }
  if (files !== undefined)
    return { source: { kind: 'files', files: fileMap(files, where) }, label: 'the files map' };
  if (directory instanceof URL) {
    if (directory.protocol !== 'file:')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `directory ${directory.href} is not a file: URL`,
        "pass a path or new URL('./public', import.meta.url)",
      );
    return { source: { kind: 'directory', directory: fileURLToPath(directory) }, label: directory.href };
  }
  if (typeof directory === 'string' && directory.length > 0) {
    const absolute = isAbsolute(directory) ? directory : resolve(directory);
    return { source: { kind: 'directory', directory: absolute }, label: directory };
  }
  throw wiringError(
    'API_WIRING_INVALID_ARGUMENT',
    where,
    '"directory" or "files" is required (a path or a file: URL; or a map of relative path → content)',
    "e.g. assets({ directory: './public' }), or assets({ files: { 'index.html': '<h1>Hi</h1>' } })",
  );
}

/** A copy of the `files` map with every path and content checked. */
function fileMap(files: unknown, where: string): ReadonlyMap<string, Buffer> {
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      '"files" must be an object mapping relative paths to contents',
      "e.g. files: { 'index.html': '<h1>Hi</h1>', 'img/logo.png': pngBytes }",
    );
  }
  const map = new Map<string, Buffer>();
  for (const [relative, content] of Object.entries(files as Record<string, unknown>)) {
    const segments = relative.split('/');
    const bad = segments.find((s) => s === '' || s.startsWith('.') || s.includes('\0'));
    if (bad !== undefined) {
      throw wiringError(
        'API_WIRING_INVALID_PATH',
        where,
        `files has the path ${JSON.stringify(relative)}, whose segment ${JSON.stringify(bad)} is ${bad === '' ? 'empty' : bad.startsWith('.') ? 'a dot segment or dotfile (never served)' : 'not a file name'}`,
        "write paths relative to the prefix, without a leading '/', '.', '..' or dotfiles, e.g. 'css/site.css'",
      );
    }
    if (typeof content === 'string') map.set(relative, Buffer.from(content, 'utf8'));
    else if (content instanceof Uint8Array)
      map.set(relative, Buffer.from(content)); // a copy
    else
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `files[${JSON.stringify(relative)}] is ${content === null ? 'null' : typeof content}, not a string or Uint8Array`,
        'pass the content as a string (sent as UTF-8) or bytes (Uint8Array or Buffer)',
      );
  }
  return map;
}

function globList(
  value: readonly string[] | undefined,
  name: string,
  fallback: readonly string[],
  where: string,
): readonly string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `${name} must be an array of globs`,
      `e.g. ${name}: ['*.css', 'img/*']`,
    );
  for (const glob of value as unknown[]) {
    if (typeof glob !== 'string' || glob.length === 0)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `${name} has ${JSON.stringify(glob)}, which is not a glob`,
        `use non-empty strings such as '*.css'`,
      );
    if (glob.startsWith('/') || glob.startsWith('./'))
      throw wiringError(
        'API_WIRING_ASSETS_GLOB',
        where,
        `${name} glob ${JSON.stringify(glob)} can never match: globs match the path relative to the directory`,
        `write it without the leading "${glob.startsWith('/') ? '/' : './'}", e.g. 'css/*'`,
      );
  }
  return Object.freeze([...(value as readonly string[])]);
}

function flag(value: boolean | undefined, name: string, fallback: boolean, where: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      where,
      `${name} must be true or false`,
      `e.g. ${name}: ${fallback}`,
    );
  return value;
}

function count(value: number | undefined, name: string, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw wiringError(
      'API_WIRING_LIMIT',
      where,
      `${name} must be a whole number ≥ 1 (got ${String(value)})`,
      `e.g. ${name}: ${fallback}`,
    );
  return value;
}
