import { type Channel, WebSocketEndpoint } from '@api/ws';
import { ChatMessage, ClientPath, PingRequest, PingResponse, SendMessage, User } from '../models';

/** `WS /websocket/{client_id}` (bearer): every ping-request is answered with a ping-response. */
export class PingSocket extends WebSocketEndpoint('/websocket/{client_id}', {
  inbound: PingRequest,
  outbound: PingResponse,
  meta: { tags: ['websocket'] },
}) {
  handle = this.handler({ path: ClientPath, user: User }, async ({ websocket, path, user }) => {
    for await (const { requestId, message } of websocket) {
      await websocket.send({
        type: 'ping-response',
        requestId,
        clientId: path.client_id,
        userId: user.id,
        message,
      });
    }
  });
}

/** The room every `/chat` client joins. */
export const LOBBY = 'lobby';

/**
 * `WS /chat` (session cookie, Origin-checked): every send-message is broadcast to every
 * connected client as a chat-message, through a bounded `Channel` (and, with a Redis backplane,
 * to the clients of every demo process).
 */
export class ChatSocket extends WebSocketEndpoint('/chat', {
  inbound: SendMessage,
  outbound: ChatMessage,
  meta: { tags: ['websocket'] },
}) {
  constructor(private readonly chat: Channel<typeof ChatMessage>) {
    super();
  }

  handle = this.handler({ user: User }, async ({ websocket, user }) => {
    using subscriber = this.chat.attach(websocket);
    this.chat.join(subscriber, LOBBY);
    for await (const { text } of websocket) {
      this.chat.publish(LOBBY, { type: 'chat-message', text, from: user.name });
    }
  });
}
