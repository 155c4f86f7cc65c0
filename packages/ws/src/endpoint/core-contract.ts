// The upgrade-route surface of @api/core's extension API as the contract
// (/work/notes/core-api-contract.md, "core: one route pipeline") describes it. Until that lands,
// core's `Wiring` has an older `addUpgradeRoute(req, socket, head, params)` and no
// `onBeforeClose`; the mount is written against these declarations and narrows `Wiring` to
// them. When core lands this file is replaced by imports from '@api/core'.
import type { Duplex } from 'node:stream';
import type { Exchange, RouteMeta, Wiring } from '@api/core';

/** An exchange on an upgrade route. */
export interface UpgradeExchange extends Exchange {
  /** `{ head }` for an upgrade request, `undefined` for a plain GET. */
  readonly upgrade: { readonly head: Buffer } | undefined;
  /** Accepts: core stops managing the response, records 101 and tracks the socket until it closes. */
  takeOver(): { readonly socket: Duplex; readonly head: Buffer };
}

/** A GET route of kind `upgrade`. */
export interface UpgradeRouteSpec {
  readonly path: string;
  readonly owner: string;
  readonly operation?: string;
  readonly ownerClass?: abstract new (...args: never[]) => object;
  readonly classMeta?: RouteMeta;
  readonly spec?: object;
  readonly mountOptions?: Readonly<Record<string, unknown>>;
  handle(ex: UpgradeExchange, input: Readonly<Record<string, unknown>>): void | Promise<void>;
}

/** The wiring members the mount needs. */
export interface UpgradeWiring extends Omit<Wiring, 'addUpgradeRoute'> {
  addUpgradeRoute(route: UpgradeRouteSpec): void;
  onBeforeClose(callback: () => void | Promise<void>): void;
}
