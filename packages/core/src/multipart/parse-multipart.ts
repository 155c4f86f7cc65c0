import { Readable } from 'node:stream';
import { isValidBoundary } from './boundary';
import { decodeExtValue, parseHeaderParams } from './header-params';
import { MultipartError } from './multipart-error';
import { defaultMultipartLimits, type MultipartLimits } from '../contract/limits';
import { runSpool, type MultipartSpool, type SpoolOp, type SpoolState } from './spool-ops';

export type { MultipartSpool, SpoolFile } from './spool-ops';

/**
 * One part of a multipart/form-data body, held in memory.
 *
 * @example
 * const [avatar] = await parseMultipart(req, boundary);
 * avatar?.filename; // 'me.png'
 */
export interface MultipartPart {
  /** The `name` parameter of `Content-Disposition`. */
  name: string;
  /** The `filename*` (decoded) or `filename` parameter; `undefined` for a plain field. */
  filename: string | undefined;
  /** The part's `Content-Type` value as sent, if any. */
  contentType: string | undefined;
  /** As-sent part header lines, in order: `[name as sent, trimmed value]`. */
  rawHeaders: ReadonlyArray<readonly [string, string]>;
  /** The part's body bytes (empty for a spooled part). */
  data: Buffer;
  /** A part written to a temporary file instead of memory (see `MultipartSpool`): where, and its size. */
  spooled?: { path: string; size: number };
}

const enum State {
  Preamble,
  AfterDelimiter,
  Headers,
  Body,
  Epilogue,
}

const EMPTY = Buffer.alloc(0);
const CR = 0x0d;
const CRLF = Buffer.from('\r\n', 'latin1');

// RFC 9110 token characters, for header field names.
const TOKEN = new Uint8Array(256);
for (let c = 0x21; c < 0x7f; c++) TOKEN[c] = 1;
for (const ch of '()<>@,;:\\"/[]?={}') TOKEN[ch.charCodeAt(0)] = 0;

function isLwsp(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09;
}

class MultipartParser {
  readonly parts: MultipartPart[] = [];
  /** Spool work queued by the last `write`, run by `parseMultipart` before the next chunk is read. */
  readonly spoolOps: SpoolOp[] = [];
  /** Bytes spooled so far (not in memory). */
  spooledBytes = 0;
  #spooling: MultipartPart | undefined = undefined;
  #state: State = State.Preamble;
  // A virtual CRLF before the body lets the first delimiter be found by the same search as the rest.
  #pending: Buffer | undefined = CRLF;
  #discarded = 0;
  readonly #needle: Buffer;
  readonly #limits: MultipartLimits;
  #partCount = 0;
  #fieldCount = 0;
  // Current part.
  #headerBytes = 0;
  #rawHeaders: Array<readonly [string, string]> = [];
  #name = '';
  #filename: string | undefined;
  #contentType: string | undefined;
  #sizeLimit = 0;
  #isFile = false;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(
    boundary: string,
    limits: MultipartLimits,
    private readonly spool: MultipartSpool | undefined,
  ) {
    this.#needle = Buffer.from(`\r\n--${boundary}`, 'latin1');
    this.#limits = limits;
  }

  get done(): boolean {
    return this.#state === State.Epilogue;
  }

  write(chunk: Buffer): void {
    let buf = chunk;
    if (this.#pending !== undefined) {
      buf = Buffer.concat([this.#pending, chunk]);
      this.#pending = undefined;
    }
    const len = buf.length;
    let pos = 0;
    while (pos < len) {
      switch (this.#state) {
        case State.Preamble:
        case State.Body: {
          const inBody = this.#state === State.Body;
          const idx = buf.indexOf(this.#needle, pos);
          if (idx !== -1) {
            if (inBody) {
              this.#append(buf, pos, idx);
              this.#finishPart();
            } else {
              this.#discard(idx - pos, 'the body does not start with the boundary');
            }
            pos = idx + this.#needle.length;
            this.#state = State.AfterDelimiter;
            this.#discarded = 0;
            break;
          }
          // Hold back only a tail that could still grow into the delimiter.
          const needle = this.#needle;
          let keep = buf.indexOf(CR, Math.max(pos, len - needle.length + 1));
          while (keep !== -1 && buf.compare(needle, 0, len - keep, keep, len) !== 0) {
            keep = buf.indexOf(CR, keep + 1);
          }
          if (keep === -1) keep = len;
          if (inBody) this.#append(buf, pos, keep);
          else this.#discard(keep - pos, 'the body does not start with the boundary');
          if (keep < len) this.#pending = buf.subarray(keep);
          return;
        }
        case State.AfterDelimiter: {
          if (len - pos < 2) {
            this.#pending = buf.subarray(pos);
            return;
          }
          if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) {
            this.#state = State.Epilogue;
            this.#discarded = 0;
            pos += 2;
            break;
          }
          // Transport padding (spaces/tabs) may precede the CRLF that ends the delimiter line.
          const eol = buf.indexOf(CRLF, pos);
          const end = eol === -1 ? len : eol;
          for (let i = pos; i < end; i++) {
            if (!isLwsp(buf[i]) && !(eol === -1 && i === len - 1 && buf[i] === CR)) {
              throw new MultipartError('malformed', 'Multipart body has unexpected bytes after a boundary');
            }
          }
          if (eol === -1) {
            this.#discard(len - pos, 'Multipart boundary line is too long');
            this.#pending = buf.subarray(pos);
            return;
          }
          pos = eol + 2;
          this.#startPart();
          break;
        }
        case State.Headers: {
          const eol = buf.indexOf(CRLF, pos);
          if (eol === -1) {
            if (this.#headerBytes + (len - pos) > this.#limits.maxHeaderSize) this.#headersTooLarge();
            this.#pending = buf.subarray(pos);
            return;
          }
          this.#headerBytes += eol - pos + 2;
          if (this.#headerBytes > this.#limits.maxHeaderSize) this.#headersTooLarge();
          if (eol === pos) {
            this.#endHeaders();
          } else {
            this.#headerLine(buf, pos, eol);
          }
          pos = eol + 2;
          break;
        }
        case State.Epilogue: {
          this.#discard(len - pos, 'Multipart epilogue is too large');
          return;
        }
      }
    }
  }

  end(): void {
    if (this.#state === State.Preamble) {
      throw new MultipartError('malformed', 'Multipart body does not contain the opening boundary');
    }
    if (this.#state !== State.Epilogue) {
      throw new MultipartError('malformed', 'Multipart body ended before the closing boundary');
    }
  }

  #discard(n: number, message: string): void {
    this.#discarded += n;
    if (this.#discarded > this.#limits.maxHeaderSize) throw new MultipartError('malformed', message);
  }

  #headersTooLarge(): never {
    throw new MultipartError(
      'malformed',
      `Multipart part header block exceeds ${this.#limits.maxHeaderSize} bytes`,
    );
  }

  #startPart(): void {
    if (++this.#partCount > this.#limits.maxParts) {
      throw new MultipartError('too-many', `Multipart body has more than ${this.#limits.maxParts} parts`);
    }
    this.#state = State.Headers;
    this.#headerBytes = 0;
    this.#rawHeaders = [];
    this.#chunks = [];
    this.#size = 0;
  }

  #headerLine(buf: Buffer, start: number, end: number): void {
    const colon = buf.indexOf(0x3a, start);
    if (colon === -1 || colon >= end || colon === start) {
      throw new MultipartError('malformed', 'Multipart part header line is not "Name: value"');
    }
    for (let i = start; i < colon; i++) {
      if (TOKEN[buf[i] as number] !== 1) {
        throw new MultipartError('malformed', 'Multipart part header has an invalid field name');
      }
    }
    const name = buf.toString('latin1', start, colon);
    const value = buf.toString('utf8', colon + 1, end).trim();
    this.#rawHeaders.push([name, value]);
  }

  #endHeaders(): void {
    let disposition: string | undefined;
    let contentType: string | undefined;
    for (const [name, value] of this.#rawHeaders) {
      const lower = name.toLowerCase();
      if (lower === 'content-disposition') disposition ??= value;
      else if (lower === 'content-type') contentType ??= value;
    }
    if (disposition === undefined) {
      throw new MultipartError('malformed', 'Multipart part has no Content-Disposition header');
    }
    const parsed = parseHeaderParams(disposition);
    if (parsed === undefined || parsed.value !== 'form-data') {
      throw new MultipartError('malformed', 'Multipart part Content-Disposition is not valid form-data');
    }
    const name = parsed.params.get('name');
    if (name === undefined) {
      throw new MultipartError('malformed', 'Multipart part Content-Disposition has no name');
    }
    // Names that reach object prototypes are refused outright, whatever the consumer does with them.
    if (name === '__proto__' || name === 'constructor') {
      throw new MultipartError(
        'malformed',
        'Multipart part names "__proto__" and "constructor" are not accepted',
      );
    }
    const extended = parsed.params.get('filename*');
    const decoded = extended === undefined ? undefined : decodeExtValue(extended);
    const filename = decoded ?? parsed.params.get('filename');

    this.#isFile = filename !== undefined;
    if (!this.#isFile && ++this.#fieldCount > this.#limits.maxFields) {
      throw new MultipartError('too-many', `Multipart body has more than ${this.#limits.maxFields} fields`);
    }
    this.#name = name;
    this.#filename = filename;
    this.#contentType = contentType;
    this.#sizeLimit = this.#isFile ? this.#limits.maxFileSize : this.#limits.maxFieldSize;
    this.#state = State.Body;
    if (this.#isFile && this.spool?.accepts(name)) {
      const part: MultipartPart = { name, filename, contentType, rawHeaders: this.#rawHeaders, data: EMPTY };
      this.#spooling = part;
      this.#sizeLimit = this.spool.maxBytes;
      this.spoolOps.push({ op: 'open', part });
    }
  }

  #append(buf: Buffer, start: number, end: number): void {
    if (end <= start) return;
    if (this.#spooling !== undefined) {
      this.#size += end - start;
      this.spooledBytes += end - start;
      if (this.spooledBytes > this.spool!.maxBytes)
        throw new MultipartError('too-large', `Multipart spooled files exceed ${this.spool!.maxBytes} bytes`, {
          limit: 'multipart.maxSpooledBytes',
          bytes: this.spool!.maxBytes,
        });
      this.spoolOps.push({ op: 'write', chunk: buf.subarray(start, end) });
      return;
    }
    this.#size += end - start;
    if (this.#size > this.#sizeLimit) {
      throw new MultipartError(
        'too-large',
        this.#isFile
          ? `Multipart file part exceeds ${this.#limits.maxFileSize} bytes`
          : `Multipart field part exceeds ${this.#limits.maxFieldSize} bytes`,
        this.#isFile
          ? { limit: 'multipart.maxFileSize', bytes: this.#limits.maxFileSize }
          : { limit: 'multipart.maxFieldSize', bytes: this.#limits.maxFieldSize },
      );
    }
    this.#chunks.push(buf.subarray(start, end));
  }

  #finishPart(): void {
    const spooled = this.#spooling;
    if (spooled !== undefined) {
      this.#spooling = undefined;
      this.spoolOps.push({ op: 'close', size: this.#size });
      this.parts.push(spooled);
      return;
    }
    const chunks = this.#chunks;
    const data = chunks.length === 1 ? Buffer.from(chunks[0] as Buffer) : Buffer.concat(chunks, this.#size);
    this.parts.push({
      name: this.#name,
      filename: this.#filename,
      contentType: this.#contentType,
      rawHeaders: this.#rawHeaders,
      data,
    });
    this.#chunks = [];
  }
}

function toBuffer(chunk: Buffer | Uint8Array): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError(
    'parseMultipart: body chunks must be Buffer or Uint8Array (was the stream given an encoding?)',
  );
}

/**
 * Parses a multipart/form-data body incrementally as its chunks arrive, keeping parts in memory.
 *
 * Chunks are scanned as they arrive (a delimiter may straddle chunks); only a short tail is ever
 * carried between chunks, plus the bytes of the part being read. On any refusal it throws a
 * {@link MultipartError} at once and stops pulling chunks without destroying the source: a Node
 * `Readable` (e.g. `IncomingMessage`) is detached and left paused, so the caller can `req.resume()`
 * to discard the rest, or close the connection after responding; another iterable is left
 * un-returned. On success the body has been read to its end. Parts named `__proto__` or
 * `constructor` are refused as `malformed` (they would reach object prototypes in naive consumers).
 * Chunks must not be mutated after they are yielded (true of Node streams and fetch bodies).
 *
 * @param body - The request body, e.g. an `IncomingMessage`.
 * @param boundary - The boundary from {@link parseBoundary}, without the leading `--`.
 * @param limits - Overrides for {@link defaultMultipartLimits}.
 * @param spool - Where file parts of chosen fields go instead of memory (temporary files).
 * @example
 * const boundary = parseBoundary(req.headers['content-type']);
 * if (boundary !== undefined) {
 *   const parts = await parseMultipart(req, boundary, { maxFileSize: 1024 * 1024 });
 * }
 */
export async function parseMultipart(
  body: AsyncIterable<Buffer | Uint8Array>,
  boundary: string,
  limits: Partial<MultipartLimits> = {},
  spool?: MultipartSpool,
): Promise<MultipartPart[]> {
  if (!isValidBoundary(boundary)) {
    throw new MultipartError('malformed', 'Multipart boundary must be 1 to 70 visible ASCII characters');
  }
  const effective = { ...defaultMultipartLimits, ...limits };
  const parser = new MultipartParser(boundary, effective, spool);
  const spoolState: SpoolState = { file: undefined, part: undefined };
  let total = 0;
  // A `for await` would call `return()` on a throw, and a Node stream's default iterator then
  // destroys the request (and its socket) before the error response can be written. A Node stream
  // is therefore read through a non-destroying iterator that is detached on refusal (so `resume()`
  // drains it); any other iterable is simply left un-returned.
  const nodeStream = body instanceof Readable;
  const iterator = (
    nodeStream ? body.iterator({ destroyOnReturn: false }) : body[Symbol.asyncIterator]()
  ) as AsyncIterator<Buffer | Uint8Array>;
  for (;;) {
    const step = await iterator.next();
    if (step.done === true) break;
    try {
      const chunk = toBuffer(step.value);
      total += chunk.length;
      parser.write(chunk);
      // Spooled bytes are on disk: the total bounds what the body holds in memory.
      if (total - parser.spooledBytes > effective.maxTotalSize)
        throw new MultipartError('too-large', `Multipart body exceeds ${effective.maxTotalSize} bytes`, {
          limit: 'multipart.maxTotalSize',
          bytes: effective.maxTotalSize,
        });
      // Backpressure: the next chunk is read once this one's spooled bytes are on disk.
      if (parser.spoolOps.length > 0) await runSpool(parser.spoolOps, spool!, spoolState);
    } catch (error) {
      await spoolState.file?.close().catch(() => undefined);
      if (nodeStream) await iterator.return?.();
      throw error;
    }
  }
  parser.end();
  return parser.parts;
}
