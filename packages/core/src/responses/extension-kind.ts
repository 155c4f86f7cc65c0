// Response kinds an extension provides (a stream): the kind's description with its own writer
// compiler, and the sink that writer answers through. Kept apart from `response.ts` (the
// declarations routes use) because the sink reaches the exchange, and the exchange the catalogue.
import { checkResponseKind } from './checks';
import {
  responseFacts,
  spec,
  type ResponseFields,
  type ResponseKindFacts,
  type ResponseSpec,
} from './response';
import type { ResponseBody } from '../contract/body-transform';
import type { Logger } from '../logging/logger';
import type { Exchange, RequestHead } from '../contract/exchange';

/** Run-time description of a response declaration, as `@api/core/extension` exports it. */
export interface ResponseKindInfo extends ResponseKindFacts {
  /** Extension-provided kinds compile their own writer (see `defineResponseKind`). */
  readonly compile?: CustomResponseCompiler;
}

/** The run-time description of an extension-provided kind: its writer compiler is there. */
export interface ExtensionResponseKindInfo extends ResponseKindInfo {
  /** Compiles the kind's writer once per route, at wiring. */
  readonly compile: CustomResponseCompiler;
}

/** Whether a declaration is an extension-provided kind (it compiles its own writer). */
export function isExtensionKind(info: ResponseKindFacts): info is ExtensionResponseKindInfo {
  return typeof (info as ResponseKindInfo).compile === 'function';
}

/** The run-time info of a `returns:` entry (a spec or a bare schema), `compile` included on extension kinds. */
export function responseInfo(entry: unknown): ResponseKindInfo | undefined {
  return responseFacts(entry);
}

/** Compiles the writer of an extension-provided response kind. */
export type CustomResponseCompiler = (route: ResponseCompileContext) => CustomWriter;
/** What an extension's response compiler learns about the route. */
export interface ResponseCompileContext {
  readonly method: string;
  readonly path: string;
  readonly where: string;
  readonly defaultStatus: number;
  readonly fail: (problem: string, fix: string) => never;
}
/**
 * Writes one returned value of an extension kind (a stream): build the head with `sink.head(...)`,
 * send it with `sink.start(...)`, then write the body with `sink.write` / `sink.end` (core writes
 * every byte, through the route's body transform). Throwing (or rejecting) before `start` renders
 * the error through the app's funnel; after it, core can only log and cut (`sink.cut()`).
 */
export type CustomWriter = (value: unknown, sink: ResponseSink) => void | Promise<void>;
/**
 * The response surface an extension writer uses: the route headers, body transform and `observe`
 * come with it. After `start`, it is the body (`write` returns false until `drain`, `end`, `cut`).
 */
export interface ResponseSink extends ResponseBody {
  readonly method: string;
  /** The request's head (headers). */
  readonly req: RequestHead;
  /** The request's exchange (route, state, params, `fail`). */
  readonly exchange: Exchange;
  readonly log: Logger;
  /** Builds the header list: content type, typed headers, cookies, raw headers, Location/Link. */
  head(
    status: number,
    contentType: string | undefined,
    fields: { readonly [K in keyof ResponseFields<unknown>]?: ResponseFields<unknown>[K] | undefined },
  ): string[];
  /**
   * Sends the status line and `headers` plus the route headers (CORS, middleware headers), no
   * content-length, and records the status `observe` sees. Returns false for HEAD: the response
   * is then complete; do not iterate the source. Throws (nothing sent) when `headers` holds a
   * framing header or a response-header hook fails: let it reach the funnel.
   */
  start(status: number, headers: string[]): boolean;
}

/** Extension API: declares a response kind compiled by its own writer (used by @api/streaming). */
export function defineResponseKind<TValue>(info: ExtensionResponseKindInfo): ResponseSpec<TValue> {
  checkResponseKind(info);
  return spec(info);
}
