// The contract check: every response a test suite produces must match what the document declares
// for its operation, status and media type. Responses are recorded at the node:http listener (any
// in-process client) or at fetch (any client pointed at a base URL), then checked with
// @hyperjump/json-schema against the schema at that exact place in the document.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib';
import { validate as validate31 } from '@hyperjump/json-schema/openapi-3-1';
import { validate as validate32 } from '@hyperjump/json-schema/openapi-3-2';
import { BASIC } from '@hyperjump/json-schema/experimental';
import type { OutputUnit } from '@hyperjump/json-schema/openapi-3-1';
import type { Document } from './document';

/** One request/response pair as the wire carried it. */
export interface RecordedExchange {
  readonly method: string;
  /** The request path without the query string (still percent-encoded). */
  readonly path: string;
  readonly status: number;
  /** Lower-cased names; repeats joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

function headerRecord(
  headers: OutgoingHttpHeaders | readonly unknown[] | undefined,
  into: Record<string, string>,
): void {
  if (!headers) return;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const name = String(headers[i]).toLowerCase();
      const value = String(headers[i + 1]);
      into[name] = into[name] === undefined ? value : `${into[name]}, ${value}`;
    }
    return;
  }
  for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
    if (value === undefined) continue;
    into[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
}

/** Wraps a node:http request listener so every finished response is appended to `sink`. */
export function recordingListener(listener: Listener, sink: RecordedExchange[]): Listener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    const headers: Record<string, string> = {};
    const collect = (chunk: unknown, encoding?: unknown): void => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.from(chunk as Uint8Array),
      );
    };
    const { writeHead, write, end } = res;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const last = args[args.length - 1];
      if (typeof last === 'object' && last !== null) headerRecord(last as OutgoingHttpHeaders, headers);
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).apply(this, [chunk, ...rest]);
    } as typeof res.write;
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (end as (...a: unknown[]) => ServerResponse).apply(this, [chunk, ...rest]);
    } as typeof res.end;
    res.on('finish', () => {
      headerRecord(res.getHeaders(), headers);
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      sink.push({
        method: req.method ?? 'GET',
        path: q < 0 ? url : url.slice(0, q),
        status: res.statusCode,
        headers,
        body: Buffer.concat(chunks),
      });
    });
    listener(req, res);
  };
}

/** The app surface an in-process client (e.g. @api/testing's TestClient) drives. */
export interface ListenerApp {
  start(): Promise<void>;
  readonly listener: Listener;
  readonly upgradeListener: (
    req: IncomingMessage,
    socket: import('node:stream').Duplex,
    head: Buffer,
  ) => void;
  readonly hasUpgradeRoutes: boolean;
  drain(): Promise<void>;
  close(): Promise<void>;
  readonly limits: unknown;
}

/** An app view whose listener records every response into `sink` (pass it to `new TestClient(…)`). */
export function recordingApp<TApp extends ListenerApp>(app: TApp, sink: RecordedExchange[]): TApp {
  const listener = recordingListener((req, res) => app.listener(req, res), sink);
  return {
    start: () => app.start(),
    listener,
    upgradeListener: (req: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) =>
      app.upgradeListener(req, socket, head),
    get hasUpgradeRoutes() {
      return app.hasUpgradeRoutes;
    },
    drain: () => app.drain(),
    close: () => app.close(),
    get limits() {
      return app.limits;
    },
  } as unknown as TApp;
}

/** A `fetch` that records every response into `sink` (give it to openapi-fetch's `createClient({ fetch })`). */
export function recordingFetch(sink: RecordedExchange[], inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await inner(request);
    const body = Buffer.from(await response.clone().arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    // fetch has undone any content-encoding already: the recorded body is the decoded one.
    delete headers['content-encoding'];
    sink.push({
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      headers,
      body,
    });
    return response;
  };
}

/** What checking a batch of exchanges found. */
export interface ContractReport {
  /** Exchanges matched to a documented operation and checked. */
  readonly checked: number;
  /** `METHOD path → status` of exchanges no documented operation covers (docs, assets, 404s, OPTIONS). */
  readonly skipped: readonly string[];
  /** Every mismatch, worded `METHOD path → status media-type: what`. */
  readonly violations: readonly string[];
  /** `operationId status` pairs seen (to assert that error statuses were exercised). */
  readonly covered: ReadonlySet<string>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function encodePointer(tokens: readonly string[]): string {
  return tokens.map((t) => encodeURIComponent(t.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');
}

/**
 * The body as the client reads it: a compressed answer (`@api/compress`, a browser's request) is
 * decoded first; a stream cut by the client's leaving decodes as far as it got.
 */
function decoded(body: Buffer, coding: string | undefined): Buffer {
  if (coding === 'gzip') return gunzipSync(body, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  if (coding === 'br')
    return brotliDecompressSync(body, { finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH });
  return body;
}

function mediaBase(value: string): string {
  return value.split(';')[0]!.trim().toLowerCase();
}

function isJson(base: string): boolean {
  return base === 'application/json' || base.endsWith('+json');
}

/** Splits an SSE stream into events (`data` lines joined with "\n"). */
function sseEvents(text: string): Record<string, string>[] {
  const events: Record<string, string>[] = [];
  let current: Record<string, string> = {};
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (Object.keys(current).length > 0) events.push(current);
      current = {};
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    current[field] = field === 'data' && current.data !== undefined ? `${current.data}\n${value}` : value;
  }
  if (Object.keys(current).length > 0) events.push(current);
  return events;
}

type Validator = (value: unknown) => { valid: boolean; errors?: readonly OutputUnit[] };

/**
 * Checks recorded exchanges against a document. Create it once per document, check as many
 * exchanges as you like, then `dispose()` (it keeps the document in a temp file for the validator).
 */
export class ContractChecker {
  readonly #document: Document;
  readonly #dir: string;
  readonly #fileUrl: string;
  readonly #validators = new Map<string, Promise<Validator>>();
  readonly #templates: {
    readonly key: string;
    readonly segments: readonly string[];
    readonly statics: number;
  }[];

  constructor(document: Document) {
    this.#document = document;
    this.#dir = mkdtempSync(join(tmpdir(), 'contract-'));
    // The file name tells @hyperjump/json-schema it is an OpenAPI document (unique per checker).
    const file = join(
      this.#dir,
      `document-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.openapi.json`,
    );
    writeFileSync(file, JSON.stringify(document));
    this.#fileUrl = pathToFileURL(file).href;
    const paths = (document.paths ?? {}) as Record<string, unknown>;
    this.#templates = Object.keys(paths)
      .map((key) => {
        const segments = key.split('/').slice(1);
        return { key, segments, statics: segments.filter((s) => !s.startsWith('{')).length };
      })
      // Static segments win over slots (`/widgets/featured` before `/widgets/{widget_id}`).
      .sort((a, b) => b.statics - a.statics);
  }

  dispose(): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }

  #match(path: string): string | undefined {
    const segments = path
      .split('/')
      .slice(1)
      .map((s) => {
        try {
          return decodeURIComponent(s);
        } catch {
          return s;
        }
      });
    for (const t of this.#templates) {
      if (t.segments.length !== segments.length) continue;
      if (t.segments.every((s, i) => (s.startsWith('{') ? segments[i] !== '' : s === segments[i])))
        return t.key;
    }
    return undefined;
  }

  #validator(tokens: readonly string[]): Promise<Validator> {
    const pointer = encodePointer(tokens);
    let v = this.#validators.get(pointer);
    if (!v) {
      const uri = `${this.#fileUrl}#/${pointer}`;
      const validate = this.#document.openapi.startsWith('3.2.') ? validate32 : validate31;
      v = validate(uri).then((compiled) => (value: unknown) => compiled(value as never, BASIC));
      this.#validators.set(pointer, v);
    }
    return v;
  }

  /** Checks a batch; the report lists every violation (an empty list is the goal). */
  async check(exchanges: readonly RecordedExchange[]): Promise<ContractReport> {
    const violations: string[] = [];
    const skipped: string[] = [];
    const covered = new Set<string>();
    let checked = 0;
    const paths = (this.#document.paths ?? {}) as Record<string, Record<string, unknown>>;
    for (const ex of exchanges) {
      const label = `${ex.method} ${ex.path} → ${ex.status}`;
      const method = ex.method === 'HEAD' ? 'get' : ex.method.toLowerCase();
      const key = this.#match(ex.path);
      const operation =
        key && METHODS.includes(method)
          ? (paths[key]?.[method] as Record<string, unknown> | undefined)
          : undefined;
      if (!key || !operation || ex.method === 'OPTIONS') {
        skipped.push(label);
        continue;
      }
      checked++;
      const responses = (operation.responses ?? {}) as Record<string, Record<string, unknown>>;
      const statusKey = [String(ex.status), `${String(ex.status)[0]}XX`, 'default'].find(
        (k) => k in responses,
      );
      if (!statusKey) {
        violations.push(
          `${label}: status ${ex.status} is not documented for ${String(operation.operationId)}`,
        );
        continue;
      }
      covered.add(`${String(operation.operationId)} ${ex.status}`);
      const response = responses[statusKey]!;
      for (const [name, header] of Object.entries(
        (response.headers ?? {}) as Record<string, { required?: boolean }>,
      )) {
        if (header.required && ex.headers[name.toLowerCase()] === undefined) {
          violations.push(`${label}: required response header ${name} is missing`);
        }
      }
      if (ex.body.length === 0 || ex.method === 'HEAD') continue;
      const content = response.content as Record<string, Record<string, unknown>> | undefined;
      const contentType = ex.headers['content-type'];
      if (!content) {
        violations.push(`${label}: a ${ex.body.length}-byte body, but the document declares none`);
        continue;
      }
      if (contentType === undefined) {
        violations.push(`${label}: a body without content-type`);
        continue;
      }
      const base = mediaBase(contentType);
      const mediaKey =
        Object.keys(content).find((k) => k.toLowerCase() === contentType.toLowerCase()) ??
        Object.keys(content).find((k) => mediaBase(k) === base);
      if (!mediaKey) {
        violations.push(
          `${label}: media type ${contentType} is not declared (declared: ${Object.keys(content).join(', ')})`,
        );
        continue;
      }
      const media = content[mediaKey]!;
      const where = ['paths', key, method, 'responses', statusKey, 'content', mediaKey];
      const text = decoded(ex.body, ex.headers['content-encoding']).toString('utf8');
      const values: { what: string; value: unknown; tokens: string[] }[] = [];
      try {
        if (isJson(base) && media.schema !== undefined) {
          values.push({ what: 'body', value: JSON.parse(text), tokens: [...where, 'schema'] });
        } else if (base === 'application/x-ndjson' || base === 'application/jsonl') {
          const slot =
            media.itemSchema !== undefined ? 'itemSchema' : media.schema !== undefined ? 'schema' : undefined;
          if (slot) {
            text.split('\n').forEach((line, i) => {
              if (line.trim() !== '')
                values.push({ what: `line ${i + 1}`, value: JSON.parse(line), tokens: [...where, slot] });
            });
          }
        } else if (base === 'text/event-stream') {
          sseEvents(text).forEach((event, i) => {
            if (media.itemSchema !== undefined) {
              const item: Record<string, unknown> = { ...event };
              if (event.retry !== undefined) item.retry = Number(event.retry);
              values.push({ what: `event ${i + 1}`, value: item, tokens: [...where, 'itemSchema'] });
            } else if (media.schema !== undefined && event.data !== undefined) {
              let data: unknown = event.data;
              try {
                data = JSON.parse(event.data);
              } catch {
                // a text event: validated as the string it is
              }
              values.push({ what: `event ${i + 1} data`, value: data, tokens: [...where, 'schema'] });
            }
          });
        }
      } catch (error) {
        violations.push(
          `${label} ${base}: the body is not what its media type says (${(error as Error).message})`,
        );
        continue;
      }
      for (const { what, value, tokens } of values) {
        const result = (await this.#validator(tokens))(value);
        if (!result.valid) {
          const details = (result.errors ?? [])
            .slice(0, 5)
            .map((e) => `${e.instanceLocation} ${e.keyword}`)
            .join('; ');
          violations.push(
            `${label} ${base}: ${what} does not match the declared schema (${details}): ${text.slice(0, 300)}`,
          );
        }
      }
    }
    return { checked, skipped, violations, covered };
  }
}

/**
 * Checks `exchanges` against `document` with a checker made for the call (and disposed after it).
 *
 * @param document the served document
 * @param exchanges what `recordingApp`, `recordingListener` or `recordingFetch` recorded
 */
export async function checkContract(
  document: Document,
  exchanges: readonly RecordedExchange[],
): Promise<ContractReport> {
  const checker = new ContractChecker(document);
  try {
    return await checker.check(exchanges);
  } finally {
    checker.dispose();
  }
}
