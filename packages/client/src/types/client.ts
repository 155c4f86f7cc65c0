// The client's shape: one property per mount, one method per declared operation, typed from the
// route classes through types only.
import type { Authenticated, Facts, RouteOfRef } from '../routes/route';
import type { ClientSocket, ConnectInput } from '../socket/socket';
import type { Answer, DataOf } from './answer';
import type { CallInput, RequiredKeys } from './input';

/** The operation names of `Resource` and `Endpoint` classes. */
export type OperationName =
  | 'create'
  | 'readMany'
  | 'readOne'
  | 'updateFull'
  | 'updatePartial'
  | 'delete'
  | 'get'
  | 'post'
  | 'put'
  | 'patch';

/** The answer promise of a call, with `orThrow()` for callers who prefer exceptions. */
export interface ClientCall<TAnswer> extends Promise<TAnswer> {
  /**
   * The successful data, or a thrown `ResponseError` carrying the failure (its `status`, its
   * `error` body and the `response`).
   */
  orThrow(): Promise<DataOf<TAnswer>>;
}

/** An operation's spec, by indexed access (no conditional type, no object type per operation). */
type SpecOf<TOp> = TOp['spec' & keyof TOp];

/** One operation as a method: the argument is optional exactly when nothing in it is required. */
export type OperationCall<S, TName, TAuth, TAppErrors = never> =
  RequiredKeys<S> extends never
    ? (input?: CallInput<S>) => ClientCall<Answer<S, TName, TAuth, TAppErrors>>
    : (input: CallInput<S>) => ClientCall<Answer<S, TName, TAuth, TAppErrors>>;

/**
 * The methods of one HTTP route class: its declared operations (the class's keys that are
 * operation names: one intersection per mount, no conditional type per key).
 */
export type RouteClient<TRoute, TAuth, TAppErrors = never> = {
  readonly [K in keyof TRoute & OperationName]-?: OperationCall<SpecOf<TRoute[K]>, K, TAuth, TAppErrors>;
};

/** A WebSocket endpoint: `connect` opens a typed socket. */
export interface SocketClient<TSend, TReceive, S> {
  /**
   * Opens the socket (the handshake carries the declared path, query and headers); resolves once
   * it is open, rejects with a `SocketClosedError` when the handshake fails.
   */
  connect: object extends ConnectInput<S>
    ? (input?: ConnectInput<S>) => Promise<ClientSocket<TSend, TReceive>>
    : (input: ConnectInput<S>) => Promise<ClientSocket<TSend, TReceive>>;
}

type HandlerSpec<TRoute> = TRoute extends { readonly handle: { readonly spec: infer S } } ? S : never;

/** The client of one mount: operations for route classes, `connect` for WebSocket endpoints. */
export type MountClient<TRoute, TAppErrors = never> =
  TRoute extends Authenticated<infer R, infer E>
    ? MountOf<R, Facts<R>, E, TAppErrors>
    : MountOf<TRoute, Facts<TRoute>, never, TAppErrors>;
/**
 * `MountClient` from the class's facts, read once (`Facts`: an indexed access, where matching the
 * class against `RouteClassFacts<…, infer …>` costs tsc a comparison per mount and per fact).
 * The class-level errors are the ones `Resource(path, { meta: { exceptions } })` declares.
 */
type MountOf<TRoute, F, TAuth, TAppErrors> = F extends {
  readonly messages: { readonly send: infer TSend; readonly receive: infer TReceive };
}
  ? SocketClient<TSend, TReceive, HandlerSpec<TRoute>>
  : RouteClient<TRoute, TAuth, TAppErrors | Exclude<F['errors' & keyof F], undefined>>;

/**
 * The whole client: one property per mount named in `routes`. `TAppErrors`: the app's exception
 * handlers (or error classes) whose answers every call may carry.
 */
export type Client<TRoutes, TAppErrors = never> = {
  readonly [K in keyof TRoutes]: MountClient<RouteOfRef<TRoutes[K]>, TAppErrors>;
};
