import type * as v from 'valibot';
import {
  type HandlerInput,
  type ObjectSchemaLike,
  type Operation,
  type PathSlots,
  type RouteClassFacts,
  type RouteMeta,
} from '@api/core';
import { checkKnownKeys, describeValue, nameRouteClass, wiringError } from '@api/core/extension';
import {
  compileFraming,
  type ClientReceiveMessage,
  type ClientSendMessage,
  type Codec,
  type Framing,
  type InboundMessage,
  type OutboundMessage,
} from '../framing/framing';
import { compileProtocols } from '../handshake/handshake';
import type { WebSocket } from '../socket/websocket';
import { kEndpoint, kHandler } from '../symbols';

const OPTION_KEYS = ['inbound', 'outbound', 'protocols', 'meta', 'name'];

/**
 * What a WebSocket handler binds from the handshake: the same vocabulary as HTTP routes, minus
 * bodies (a handshake has none).
 */
export interface SocketSpec {
  /** Path slots (404 when a value fails conversion). */
  readonly path?: ObjectSchemaLike;
  /** The query string (400 when invalid). */
  readonly params?: ObjectSchemaLike;
  /** Request headers: field `x_trace_id` or `xTraceId` reads `x-trace-id` (400 when invalid). */
  readonly headers?: ObjectSchemaLike;
  /** Cookies, by verbatim name (400 when invalid). */
  readonly cookies?: ObjectSchemaLike;
  /** A case-insensitive, immutable view of the handshake's headers as sent. */
  readonly rawHeaders?: true;
  /** The authenticated user, from the mount's `auth` (@api/auth). */
  readonly user?: v.GenericSchema;
}

/** The single argument of a WebSocket handler: the declared sources plus the typed socket. */
export type SocketHandlerInput<S extends SocketSpec, TIn, TOut> = HandlerInput<S> & {
  /** The connection: iterate it for inbound messages; `send`, `sendEncoded`, `close`. */
  readonly websocket: WebSocket<TIn, TOut>;
};

/** A declared handler (what `this.handler(...)` returns). */
export interface SocketHandler<S extends SocketSpec = SocketSpec> {
  readonly [kHandler]: true;
  readonly spec: S;
  readonly handler: (input: never) => unknown;
}

/** What `WebSocketEndpoint(...)` records on its class. */
export interface EndpointInfo {
  readonly path: string;
  readonly inbound: Codec;
  readonly outbound: Codec;
  /** The subprotocols it speaks (empty: none). */
  readonly protocols: readonly string[];
  readonly meta: RouteMeta | undefined;
}

/** Class-level options of `WebSocketEndpoint(path, options)`. */
export interface WebSocketEndpointOptions<TIn extends Framing, TOut extends Framing> {
  /**
   * What the client sends: tagged Struct(s) or one Standard Schema of tagged objects (JSON text
   * frames), `'string'` or `'bytes'`.
   */
  readonly inbound: TIn;
  /**
   * What the server sends: tagged Struct(s) or one Standard Schema of tagged objects (JSON text
   * frames), `'string'` or `'bytes'`.
   */
  readonly outbound: TOut;
  /**
   * The subprotocols (`Sec-WebSocket-Protocol`) the endpoint speaks. The handshake selects the
   * client's first preference among them (`websocket.protocol`); a client offering only others is
   * refused with 400 before the upgrade. Without `protocols`, a client offering any is refused.
   */
  readonly protocols?: readonly string[];
  /** Metadata for generated documents (tags, summary, description). */
  readonly meta?: RouteMeta;
  /**
   * The class's name in the route catalogue, generated documents, `WiringError`s and logs;
   * default: the class name, which a bundler may change. An identifier.
   */
  readonly name?: string;
}

type EntriesOf<T> = T extends { readonly entries: infer E } ? E : never;
type MissingSlots<S, TPath extends string> = S extends { readonly path: infer P }
  ? Exclude<PathSlots<TPath>, keyof EntriesOf<P>>
  : never;
type ExtraFields<S, TPath extends string> = S extends { readonly path: infer P }
  ? Exclude<keyof EntriesOf<P> & string, PathSlots<TPath>>
  : never;
type UnknownKeys<S> = Exclude<keyof S, keyof SocketSpec>;

declare const missingPathSlots: unique symbol;
declare const extraPathFields: unique symbol;

/** Compile-time checks of a handler's spec against the endpoint's path (the run-time ones say the same). */
export type SocketSpecCheck<S, TPath extends string> = ([MissingSlots<S, TPath>] extends [never]
  ? unknown
  : { readonly [missingPathSlots]: `path schema misses slot: ${MissingSlots<S, TPath> & string}` }) &
  ([ExtraFields<S, TPath>] extends [never]
    ? unknown
    : {
        readonly [extraPathFields]: `path fields are not slots of the WebSocket path: ${ExtraFields<S, TPath> & string}`;
      }) & { readonly [K in UnknownKeys<S>]: never };

/**
 * Type-only: every endpoint instance carries its path and message types per direction (what the
 * client sends, what the server sends), read by `@api/client` through `import type`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into the class below
export interface WebSocketEndpointBase<TPath extends string, TIn extends Framing, TOut extends Framing>
  extends RouteClassFacts<
    TPath,
    { readonly send: ClientSendMessage<TIn>; readonly receive: ClientReceiveMessage<TOut> }
  > {}

/** The base class `WebSocketEndpoint(...)` returns. */
export abstract class WebSocketEndpointBase<TPath extends string, TIn extends Framing, TOut extends Framing> {
  /**
   * Declares the handler: the handshake sources it binds, and the function that runs for the
   * connection's lifetime. Types of `path`, `user`, … and of the socket's messages are inferred.
   * When it returns the socket closes with 1000; when it throws, with 1011.
   *
   * @param spec - `path`, `params`, `headers`, `cookies`, `rawHeaders`, `user`
   * @param handle - receives the declared sources and `websocket`
   */
  protected handler<const S extends SocketSpec>(
    spec: S & SocketSpecCheck<S, TPath>,
    handle: (
      input: SocketHandlerInput<S, InboundMessage<TIn>, OutboundMessage<TOut>>,
    ) => void | Promise<void>,
  ): SocketHandler<S> {
    return { [kHandler]: true, spec, handler: handle };
  }
}

/** The constructor `WebSocketEndpoint(...)` returns: extend it. */
export type WebSocketEndpointClass<
  TPath extends string,
  TIn extends Framing,
  TOut extends Framing,
> = abstract new () => WebSocketEndpointBase<TPath, TIn, TOut>;

/**
 * Declares a WebSocket route at `path` with its framing per direction. Define exactly one
 * handler, `handle = this.handler({ … }, async ({ websocket, … }) => { … })`, and mount an
 * instance with `this.include(websocket(new MySocket(…), options))`. A framing that is not a
 * tagged Struct (or list / union of them), a Standard Schema of tagged objects (zod, ArkType),
 * `'string'` or `'bytes'` is a `WiringError` here.
 *
 * @param path - the route path; `{slot}`s bind through `path`
 * @param options - `inbound`, `outbound`, optional `protocols`, `meta` and `name`
 * @example
 * class EchoSocket extends WebSocketEndpoint('/echo', { inbound: Say, outbound: Said }) {
 *   handle = this.handler({}, async ({ websocket }) => {
 *     for await (const { text } of websocket) await websocket.send({ type: 'Said', text });
 *   });
 * }
 */
export function WebSocketEndpoint<
  const TPath extends string,
  const TIn extends Framing,
  const TOut extends Framing,
>(path: TPath, options: WebSocketEndpointOptions<TIn, TOut>): WebSocketEndpointClass<TPath, TIn, TOut> {
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      `WebSocketEndpoint(${typeof path === 'string' ? JSON.stringify(path) : describeValue(path)})`,
      'a mount path starts with "/"',
      "e.g. WebSocketEndpoint('/chat', { inbound, outbound })",
    );
  const label = `WebSocketEndpoint(${JSON.stringify(path)})`;
  checkKnownKeys(
    label,
    options ?? {},
    OPTION_KEYS,
    'mount options such as auth go to websocket(endpoint, options)',
  );
  const info: EndpointInfo = {
    path,
    inbound: compileFraming(`${label} inbound`, options?.inbound, 'inbound'),
    outbound: compileFraming(`${label} outbound`, options?.outbound, 'outbound'),
    protocols: compileProtocols(label, options.protocols),
    meta: options.meta,
  };
  abstract class Base extends WebSocketEndpointBase<TPath, TIn, TOut> {}
  Object.defineProperty(Base, kEndpoint, { value: info });
  nameRouteClass(Base, options.name, `WebSocketEndpoint(${JSON.stringify(path)}, { name })`);
  return Base;
}

/** The endpoint info of an instance, or undefined when it is not a `WebSocketEndpoint`. */
export function endpointInfo(instance: object): EndpointInfo | undefined {
  return (instance.constructor as { [kEndpoint]?: EndpointInfo })[kEndpoint];
}

/** True for a handler declared with `this.handler(...)`. */
export function isSocketHandler(value: unknown): value is SocketHandler {
  return typeof value === 'object' && value !== null && kHandler in value;
}

/** The spec of an endpoint's `handle`. */
export type SpecOf<TEndpoint> = TEndpoint extends { readonly handle: SocketHandler<infer S> } ? S : never;

/**
 * The endpoint seen as a route class with one operation, for mount options that read a route's
 * operations (e.g. `auth` from @api/auth checks `user` against them).
 */
export type AsRoute<TEndpoint> = { readonly handle: Operation<SpecOf<TEndpoint>, never> };
