// @api/ws — typed WebSockets on `ws`: framing per direction, close codes, a bounded broadcast
// Channel and an optional Redis backplane, mounted through core's public extension point only.
import './wiring-codes';
export {
  WebSocketEndpoint,
  WebSocketEndpointBase,
  type AsRoute,
  type SocketHandler,
  type SocketHandlerInput,
  type SocketSpec,
  type SocketSpecCheck,
  type SpecOf,
  type WebSocketEndpointClass,
  type WebSocketEndpointOptions,
} from './endpoint/endpoint';
export {
  websocket,
  DEFAULT_MAX_FRAME_SIZE,
  DEFAULT_PING_INTERVAL,
  SHUTDOWN_GRACE_MS,
  type WebSocketEndpointInstance,
  type WebSocketMountOptions,
  type WebSocketOptions,
} from './endpoint/mount';
export { WebSocketClosedError, type WebSocket } from './socket/websocket';
export { CloseCode, MAX_REASON_BYTES } from './socket/close-codes';
export type {
  ClientReceiveMessage,
  ClientSendMessage,
  Framing,
  InboundMessage,
  OutboundMessage,
  TaggedSchema,
  TaggedStandardSchema,
} from './framing/framing';
export { Channel, type ChannelOptions } from './channel/channel';
export { Subscriber, type SubscriberStats } from './channel/subscriber';
export type { Overflow } from './channel/bounded-writer';
export type { Backplane } from './channel/backplane';
export { redisBackplane, type RedisBackplaneOptions, type RedisConnection } from './channel/redis-backplane';
export { UpgradeRequiredError } from './errors';
