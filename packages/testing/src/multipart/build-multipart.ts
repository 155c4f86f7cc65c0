import { randomBytes } from 'node:crypto';

/** One file part of a multipart body. */
export interface FileUpload {
  /** The `filename` parameter of the part's `Content-Disposition`. */
  readonly filename: string;
  /** The file bytes (a string is sent as UTF-8). */
  readonly content: string | Uint8Array;
  /** The part's `Content-Type`. Default `application/octet-stream`. */
  readonly contentType?: string;
  /** Extra part headers, as written (a record or a list of pairs; repeats allowed). */
  readonly headers?: HeaderInit;
}

/** Request headers: a record, or a list of `[name, value]` pairs (repeats and as-written names kept). */
export type HeaderInit = Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>;

/** Plain form fields: a value, or a list of values sent as repeated parts. */
export type FormFields = Readonly<Record<string, string | readonly string[]>>;

/** File fields: one file, or a list of files sent as repeated parts. */
export type FormFiles = Readonly<Record<string, FileUpload | readonly FileUpload[]>>;

/** A built multipart body and the `Content-Type` that announces its boundary. */
export interface MultipartBody {
  readonly contentType: string;
  readonly body: Buffer;
}

/**
 * Lists headers as `[name, value]` pairs, keeping names as written.
 *
 * @param headers - A record or a list of pairs.
 * @example
 * headerPairs({ 'X-A': '1' }); // [['X-A', '1']]
 */
export function headerPairs(headers: HeaderInit | undefined): Array<readonly [string, string]> {
  if (headers === undefined) return [];
  if (isPairList(headers)) return headers.map(([name, value]) => [name, value] as const);
  return Object.entries(headers);
}

function isPairList(headers: HeaderInit): headers is ReadonlyArray<readonly [string, string]> {
  return Array.isArray(headers);
}

function quote(value: string): string {
  // Quotes and line breaks cannot appear raw inside a quoted-string parameter.
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
}

/**
 * Builds a `multipart/form-data` body: plain fields first (in record order), then files.
 *
 * @param data - Plain fields.
 * @param files - File fields.
 * @param boundary - The boundary to use; a random one by default.
 * @example
 * const { contentType, body } = buildMultipart({ title: 'T' }, { avatar: { filename: 'a.txt', content: 'hi' } });
 */
export function buildMultipart(
  data: FormFields | undefined,
  files: FormFiles | undefined,
  boundary = `----api-testing-${randomBytes(12).toString('hex')}`,
): MultipartBody {
  const chunks: Buffer[] = [];
  const part = (headers: ReadonlyArray<readonly [string, string]>, content: string | Uint8Array): void => {
    const head = [`--${boundary}`, ...headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n');
    chunks.push(
      Buffer.from(`${head}\r\n\r\n`, 'utf8'),
      typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content),
      Buffer.from('\r\n'),
    );
  };
  for (const [name, value] of Object.entries(data ?? {})) {
    const values: readonly string[] = typeof value === 'string' ? [value] : value;
    for (const one of values) part([['Content-Disposition', `form-data; name=${quote(name)}`]], one);
  }
  for (const [name, value] of Object.entries(files ?? {})) {
    const uploads: readonly FileUpload[] = isUploadList(value) ? value : [value];
    for (const file of uploads) {
      part(
        [
          ['Content-Disposition', `form-data; name=${quote(name)}; filename=${quote(file.filename)}`],
          ['Content-Type', file.contentType ?? 'application/octet-stream'],
          ...headerPairs(file.headers),
        ],
        file.content,
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

function isUploadList(value: FileUpload | readonly FileUpload[]): value is readonly FileUpload[] {
  return Array.isArray(value);
}
