// Ready to paste into apps/demo: how DemoApp.wire() mounts the two sockets. In app.ts:
//
//   const chat = await this.aenter(chatChannel(process.env.REDIS_URL));
//   this.include(websocket(new PingSocket(), { auth: tokenAuth }));
//   this.include(websocket(new ChatSocket(chat), { auth: sessionAuth, allowedOrigins: corsOrigins }));
//
// where `corsOrigins` is the DEMO_CORS_ORIGINS list (same-origin is always allowed).
import { Redis } from 'ioredis';
import { Channel, redisBackplane } from '@api/ws';
import { ChatMessage } from './models';

/**
 * The chat channel: local fan-out, plus Redis fan-out across demo processes when `redisUrl` is
 * set. Closing it (the app's exit stack does) closes its Redis connections.
 */
export function chatChannel(redisUrl: string | undefined): Channel<typeof ChatMessage> {
  return new Channel(ChatMessage, {
    queueSize: 64,
    overflow: 'close',
    ...(redisUrl
      ? {
          backplane: redisBackplane(new Redis(redisUrl, { maxRetriesPerRequest: 1 }), {
            prefix: 'demo:chat:',
          }),
        }
      : {}),
  });
}

/** `DEMO_CORS_ORIGINS=https://a.example,https://b.example` → the chat's extra allowed origins. */
export function chatOrigins(env: string | undefined): string[] {
  return (
    env
      ?.split(',')
      .map((o) => o.trim())
      .filter(Boolean) ?? []
  );
}
