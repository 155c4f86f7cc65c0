import { Redis } from 'ioredis';
import { BaseFactory, type Logger } from '@api/core';
import { memoryStore, redisStore, type RateLimitStore } from '@api/rate-limit';
import { Channel, redisBackplane } from '@api/ws';
import { ChatMessage } from './models';
import { WidgetStore } from './services/widget-store';

/** Builds the demo's services; anything with a lifecycle opens on the owner's exit stacks. */
export class Factory extends BaseFactory {
  /** The widget store; `DEMO_DB` picks the file (`:memory:` for tests), default `./data/widgets.db`. */
  createWidgetStore(file = process.env.DEMO_DB ?? './data/widgets.db'): WidgetStore {
    return this.enter(new WidgetStore(file));
  }

  /**
   * Where rate-limit buckets live: Redis when `redisUrl` is set (every demo process shares one
   * limit; the store quits its connection when the app closes), else this process's memory.
   */
  createRateLimitStore(redisUrl: string | undefined): RateLimitStore {
    return redisUrl
      ? redisStore(new Redis(redisUrl, { maxRetriesPerRequest: 1 }), { prefix: 'demo:rl:' })
      : memoryStore();
  }

  /**
   * The chat channel: local fan-out, plus fan-out across demo processes through Redis when
   * `redisUrl` is set (the app passes `DEMO_REDIS_URL`). Closing it (at shutdown) closes its Redis connections;
   * losing Redis keeps local fan-out working and logs a warning.
   */
  createChatChannel(redisUrl: string | undefined, log?: Logger): Promise<Channel<typeof ChatMessage>> {
    return this.aenter(
      new Channel(ChatMessage, {
        queueSize: 64,
        overflow: 'close',
        ...(log ? { log } : {}),
        ...(redisUrl
          ? {
              backplane: redisBackplane(new Redis(redisUrl, { maxRetriesPerRequest: 1 }), {
                prefix: 'demo:chat:',
              }),
            }
          : {}),
      }),
    );
  }
}
