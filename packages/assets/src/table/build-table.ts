import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { wiringError } from '@api/core/extension';
import type { ResolvedOptions } from '../options/options';
import { compileGlob, compileGlobs } from './glob';
import { AMBIGUOUS_SUFFIXES, mediaTypeOf, suffixOf, type MediaType } from './media-type';
import { UnreadableDirectory, walk, type Found, type Skipped } from './walk';

/** One file, read, hashed and compressed at wiring. */
export interface AssetFile {
  /** `/`-separated path relative to the served directory. */
  readonly relative: string;
  readonly mediaType: MediaType;
  /** The file's bytes. */
  readonly body: Buffer;
  /** The first 32 hex digits of the SHA-256 of `body`. */
  readonly hash: string;
  /** The gzip copy, when kept (text-like and under 90% of `body`). */
  readonly gzip: Buffer | undefined;
  /** The brotli copy, when asked for and kept (under 90% of `body` and smaller than `gzip`). */
  readonly br: Buffer | undefined;
}

/** Everything `assets()` serves from one directory or `files` map. */
export interface AssetTable {
  /** The directory after resolving symlinks in its own path (`''` for a `files` map). */
  readonly root: string;
  readonly files: readonly AssetFile[];
  /** Bytes held in memory, compressed copies included. */
  readonly totalBytes: number;
  readonly skipped: Skipped;
}

/**
 * zlib's sync output is a view into a 16 KiB chunk: keeping it would hold the whole chunk for a
 * 1 KiB file (16 MB for 1,000 small files). Kept copies are moved into buffers of their own size.
 */
const exact = (view: Buffer): Buffer => {
  const own = Buffer.allocUnsafeSlow(view.length);
  view.copy(own);
  return own;
};

/** A copy is kept only when it saves at least 10%. */
const worthKeeping = (copy: Buffer, original: Buffer): boolean => copy.length * 10 < original.length * 9;
const MAX_LISTED = 3;

/**
 * Reads the directory once: walk, filter, check suffixes and caps, then read, hash and compress
 * every file. Caps are checked before anything is read: the number of matching files first, then
 * each file's on-disk size against what is left of `maxTotalBytes` (compressed copies of earlier
 * files count). Every problem is a `WiringError` naming the file or option and the fix.
 *
 * @param options validated options
 * @param where the call site named in messages
 */
export function buildTable(options: ResolvedOptions, where: string): AssetTable {
  const include = compileGlobs(options.include);
  const exclude = compileGlobs(options.exclude);
  const accept = (relative: string): boolean => include(relative) && !exclude(relative);
  const { root, walked } =
    options.source.kind === 'directory'
      ? fromDirectory(options.source.directory, accept, options, where)
      : { root: '', walked: fromMap(options.source.files, accept, options.maxFiles) };
  if (walked.overLimit) {
    throw wiringError(
      'API_WIRING_ASSETS_TOO_LARGE',
      where,
      `more than maxFiles (${options.maxFiles}) files under ${options.directoryLabel} match include/exclude`,
      'raise maxFiles, or narrow include / widen exclude',
    );
  }
  if (walked.files.length === 0) {
    throw wiringError(
      'API_WIRING_ASSETS_EMPTY',
      where,
      `no file under ${options.directoryLabel} matches include ${JSON.stringify(options.include)} and exclude ${JSON.stringify(options.exclude)} (dotfiles and symlinks are never served)`,
      'check the directory and the globs; globs match the path relative to the directory',
    );
  }
  const types = mediaTypes(walked.files, options, where);

  const files: AssetFile[] = [];
  let used = 0;
  const budget = (what: string, bytes: number, relative: string, fix: string): void => {
    const remaining = options.maxTotalBytes - used;
    if (bytes <= remaining) return;
    throw wiringError(
      'API_WIRING_ASSETS_TOO_LARGE',
      where,
      `${what} "${relative}" is ${bytes} bytes, over the ${remaining} bytes left of maxTotalBytes (${options.maxTotalBytes}; ${used} bytes already held by ${files.length} file(s) and their compressed copies)`,
      fix,
    );
  };
  for (const [i, found] of walked.files.entries()) {
    const check = (size: number): void =>
      budget('file', size, found.relative, `raise maxTotalBytes, or leave large files out with exclude`);
    const body = found.content ?? readChecked(found, options, where, check);
    if (found.content !== undefined) check(body.length);
    used += body.length;
    const mediaType = types[i]!;
    let gzip: Buffer | undefined;
    let br: Buffer | undefined;
    if (mediaType.compressible && options.gzip) {
      const copy = gzipSync(body);
      if (worthKeeping(copy, body)) {
        budget('the gzip copy of', copy.length, found.relative, 'raise maxTotalBytes, or set gzip: false');
        gzip = exact(copy);
        used += copy.length;
      }
    }
    if (mediaType.compressible && options.brotli) {
      const copy = brotliCompressSync(body, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: 5,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      });
      if (worthKeeping(copy, body) && (gzip === undefined || copy.length < gzip.length)) {
        budget(
          'the brotli copy of',
          copy.length,
          found.relative,
          'raise maxTotalBytes, or set brotli: false',
        );
        br = exact(copy);
        used += copy.length;
      }
    }
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
    files.push({ relative: found.relative, mediaType, body, hash, gzip, br });
  }
  return { root, files, totalBytes: used, skipped: walked.skipped };
}

/** Walks the directory (see {@link walk}), after resolving it. */
function fromDirectory(
  directory: string,
  accept: (relative: string) => boolean,
  options: ResolvedOptions,
  where: string,
): { root: string; walked: ReturnType<typeof walk> } {
  const root = resolveRoot(directory, options, where);
  try {
    return { root, walked: walk(root, accept, options.maxFiles) };
  } catch (error) {
    if (!(error instanceof UnreadableDirectory)) throw error;
    throw wiringError(
      'API_WIRING_ASSETS_DIRECTORY',
      where,
      `the directory "${error.relative || '.'}" under ${options.directoryLabel} cannot be read (${error.code})`,
      'make it readable by the server, or leave it out with exclude',
    );
  }
}

/** The `files` map as a walk's result: accepted entries in the walk's order, content at hand. */
function fromMap(
  files: ReadonlyMap<string, Buffer>,
  accept: (relative: string) => boolean,
  limit: number,
): ReturnType<typeof walk> {
  const found: Found[] = [];
  for (const [relative, content] of files) {
    if (!accept(relative)) continue;
    found.push({ relative, absolute: relative, content });
    if (found.length > limit)
      return { files: found, skipped: { symlinks: [], special: [] }, overLimit: true };
  }
  found.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { files: found, skipped: { symlinks: [], special: [] }, overLimit: false };
}

function resolveRoot(directory: string, options: ResolvedOptions, where: string): string {
  let root: string;
  try {
    // The configured directory may itself be reached through a symlink (a deploy's `current`);
    // only entries inside it are never followed.
    root = realpathSync(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw code === 'ENOENT' || code === 'ENOTDIR'
      ? wiringError(
          'API_WIRING_ASSETS_DIRECTORY',
          where,
          `the directory ${options.directoryLabel} does not exist (looked for ${directory})`,
          "create it, or point directory at it (relative paths start at the working directory; new URL('./public', import.meta.url) does not depend on it)",
        )
      : wiringError(
          'API_WIRING_ASSETS_DIRECTORY',
          where,
          `the directory ${options.directoryLabel} cannot be resolved (${code ?? String(error)})`,
          'make it readable by the server',
        );
  }
  if (!statSync(root).isDirectory()) {
    throw wiringError(
      'API_WIRING_ASSETS_DIRECTORY',
      where,
      `${options.directoryLabel} is a file, not a directory`,
      'point directory at the folder that holds the files',
    );
  }
  return root;
}

/** Media types of every file, or one WiringError listing the unsupported suffixes. */
function mediaTypes(files: readonly Found[], options: ResolvedOptions, where: string): MediaType[] {
  const explicit = options.include.map((glob) => ({ glob, test: compileGlob(glob) }));
  const types: MediaType[] = [];
  const refused: { relative: string; suffix: string }[] = [];
  let ambiguous = false;
  for (const { relative } of files) {
    const suffix = suffixOf(relative);
    const type = mediaTypeOf(relative);
    const listed =
      AMBIGUOUS_SUFFIXES.has(suffix) &&
      explicit.some(({ glob, test }) => glob.toLowerCase().endsWith(suffix) && test(relative));
    if (type === undefined || (AMBIGUOUS_SUFFIXES.has(suffix) && !listed)) {
      if (type !== undefined) ambiguous = true;
      refused.push({ relative, suffix });
      continue;
    }
    types.push(type);
  }
  if (refused.length === 0) return types;
  const more = refused.length > MAX_LISTED ? ` and ${refused.length - MAX_LISTED} more` : '';
  const listed = refused
    .slice(0, MAX_LISTED)
    .map(({ relative, suffix }) => `"${relative}" (${suffix === '' ? 'no suffix' : suffix})`);
  const first = refused[0]!;
  throw wiringError(
    'API_WIRING_ASSETS_MEDIA_TYPE',
    where,
    `unsupported suffix: ${listed.join(', ')}${more} under ${options.directoryLabel}` +
      (ambiguous ? ` (.ts and .mts are TypeScript source far more often than video/mp2t)` : ''),
    `leave them out with exclude (e.g. exclude: ['${first.suffix === '' ? first.relative : `*${first.suffix}`}'])` +
      (ambiguous
        ? `, or name the suffix in an include glob (e.g. include: ['*.ts']) to serve it as video/mp2t`
        : '') +
      '; only suffixes with a known media type are served',
  );
}

/** Opens without following a symlink, checks the on-disk size with `check` before reading, reads it. */
function readChecked(
  found: Found,
  options: ResolvedOptions,
  where: string,
  check: (size: number) => void,
): Buffer {
  const unreadable = (reason: string): never => {
    throw wiringError(
      'API_WIRING_ASSETS_DIRECTORY',
      where,
      `the file "${found.relative}" under ${options.directoryLabel} cannot be read (${reason})`,
      'make it readable by the server, or leave it out with exclude',
    );
  };
  let fd: number;
  try {
    fd = openSync(found.absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return unreadable(code === 'ELOOP' ? 'it was replaced by a symlink' : code);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return unreadable('it is no longer a regular file');
    check(stat.size);
    const body = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < body.length) {
      const n = readSync(fd, body, filled, body.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return filled === body.length ? body : body.subarray(0, filled);
  } catch (error) {
    if (error instanceof Error && error.name === 'WiringError') throw error;
    return unreadable((error as NodeJS.ErrnoException).code ?? String(error));
  } finally {
    closeSync(fd);
  }
}
