// Spooling file parts to temporary files while a multipart body streams in: what the parser queues
// after each chunk, and the run that carries it out before the next chunk is read (backpressure).

/**
 * Where the file parts of chosen fields go instead of memory: a temporary file each, written as
 * the body streams in (the next chunk is read only once the last one is on disk). Spooled bytes
 * count against `maxBytes`, not against `maxTotalSize` (which bounds memory).
 */
export interface MultipartSpool {
  /** Whether a file part (one with a filename) of the field `name` is spooled. */
  accepts(name: string): boolean;
  /** Most bytes spooled by one body, all files together (each file too) → `too-large`. */
  readonly maxBytes: number;
  /** Opens the next spooled part's file. */
  open(): Promise<SpoolFile>;
}

/** One spooled part's file while it is written. */
export interface SpoolFile {
  readonly path: string;
  write(chunk: Buffer): Promise<void>;
  close(): Promise<void>;
}

/** What the parser asks the spool to do, in order, after each chunk. */
export type SpoolOp =
  | { readonly op: 'open'; readonly part: { spooled?: { path: string; size: number } } }
  | { readonly op: 'write'; readonly chunk: Buffer }
  | { readonly op: 'close'; readonly size: number };

/** Runs the spool work one chunk queued: opens, writes and closes files in order. */
/** The file being written, and its part. */
export interface SpoolState {
  file: SpoolFile | undefined;
  part: { spooled?: { path: string; size: number } } | undefined;
}

export async function runSpool(ops: SpoolOp[], spool: MultipartSpool, state: SpoolState): Promise<void> {
  for (const item of ops.splice(0)) {
    if (item.op === 'open') {
      state.file = await spool.open();
      item.part.spooled = { path: state.file.path, size: 0 };
      state.part = item.part;
    } else if (item.op === 'write') await state.file!.write(item.chunk);
    else {
      await state.file!.close();
      state.part!.spooled!.size = item.size;
      state.file = undefined;
    }
  }
}
