import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A regular file found under the served directory. */
export interface Found {
  /** `/`-separated path relative to the directory. */
  readonly relative: string;
  /** Absolute path on disk. */
  readonly absolute: string;
  /** The bytes, when the file was given in memory (the `files` option) rather than found on disk. */
  readonly content?: Buffer;
}

/** What the walk left out, for one log line. */
export interface Skipped {
  symlinks: string[];
  special: string[];
}

/** Why a directory could not be listed. */
export class UnreadableDirectory extends Error {
  constructor(
    readonly relative: string,
    readonly code: string,
  ) {
    super(`cannot list ${relative || '.'} (${code})`);
  }
}

/**
 * Walks `root` without following symlinks: regular files only, dotfiles and dot-directories
 * skipped, symlinks (to files or directories) and special files (FIFOs, sockets, devices)
 * skipped and reported. Results are sorted by relative path (code-unit order), so routes are
 * registered in the same order on every machine. `accept` filters files as they are found, and
 * the walk stops as soon as more than `limit` files were accepted.
 *
 * @param root absolute path of an existing directory
 * @param accept whether a relative path is served (include/exclude)
 * @param limit the most files the caller will take
 */
export function walk(
  root: string,
  accept: (relative: string) => boolean,
  limit: number,
): { files: Found[]; skipped: Skipped; overLimit: boolean } {
  const files: Found[] = [];
  const skipped: Skipped = { symlinks: [], special: [] };
  const pending: string[] = [''];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir === '' ? root : join(root, dir), { withFileTypes: true });
    } catch (error) {
      throw new UnreadableDirectory(dir, (error as NodeJS.ErrnoException).code ?? 'error');
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      // Dirent types come from lstat semantics: a symlink is reported as a symlink, never followed.
      if (entry.isSymbolicLink()) {
        skipped.symlinks.push(relative);
      } else if (entry.isDirectory()) {
        pending.push(relative);
      } else if (!entry.isFile()) {
        skipped.special.push(relative);
      } else if (accept(relative)) {
        files.push({ relative, absolute: join(root, relative) });
        if (files.length > limit) return { files, skipped, overLimit: true };
      }
    }
  }
  files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { files, skipped, overLimit: false };
}
