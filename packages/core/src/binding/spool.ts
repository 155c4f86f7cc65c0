// Temporary files for spooled file parts (`FileFormPart.spooled()`): one directory per request
// under the OS temp dir, created on the first spooled part, removed with everything in it when the
// response ends (or the read fails).
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { MultipartSpool, SpoolFile } from '../multipart';

/** The prefix of the per-request directories (`<tmpdir>/api-upload-XXXXXX`). */
export const SPOOL_PREFIX = 'api-upload-';

/** A spool for one request: its files live until `remove()`. */
export interface RequestSpool extends MultipartSpool {
  /** Removes the request's directory and every file in it (idempotent; never throws). */
  remove(): Promise<void>;
}

/**
 * A spool for the file parts of `fields`, at most `maxBytes` in all.
 *
 * @param fields - The form fields whose file parts are spooled.
 * @param maxBytes - The most bytes one request may spool.
 */
export function requestSpool(fields: ReadonlySet<string>, maxBytes: number): RequestSpool {
  let dir: Promise<string> | undefined;
  let count = 0;
  let removed: Promise<void> | undefined;
  const opened = new Set<SpoolFile>();
  return {
    maxBytes,
    accepts: (name) => fields.has(name),
    async open(): Promise<SpoolFile> {
      if (removed !== undefined) throw new Error('the request ended before its upload was spooled');
      dir ??= mkdtemp(join(tmpdir(), SPOOL_PREFIX));
      const path = join(await dir, `part-${count++}`);
      const handle = await open(path, 'wx', 0o600);
      let closed = false;
      const file: SpoolFile = {
        path,
        async write(chunk) {
          let at = 0;
          while (at < chunk.length) at += (await handle.write(chunk, at, chunk.length - at)).bytesWritten;
        },
        async close() {
          if (closed) return;
          closed = true;
          opened.delete(file);
          await handle.close();
        },
      };
      opened.add(file);
      return file;
    },
    remove(): Promise<void> {
      removed ??= (async () => {
        await Promise.all([...opened].map((f) => f.close().catch(() => undefined)));
        const made = await dir?.catch(() => undefined);
        // A failure to remove is the caller's to report (it has the logger): files left on disk.
        if (made !== undefined) await rm(made, { recursive: true, force: true });
      })();
      return removed;
    },
  };
}

/** Reads a spooled file as a stream. */
export function readSpooled(path: string): Readable {
  return createReadStream(path);
}
