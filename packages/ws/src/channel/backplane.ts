import type { Logger } from '@api/core';

/**
 * Fan-out past one process, behind the `Channel` API. A channel calls `open` once, `subscribe`
 * / `unsubscribe` as its topics gain their first or lose their last local subscriber, and
 * `publish` with the already-encoded frame of every message published locally (which it also
 * delivers locally itself, so a backplane must not hand a process its own messages back).
 * A backplane must never throw from these calls: when its transport is down it logs and the
 * channel keeps delivering locally.
 */
export interface Backplane {
  /**
   * Starts the backplane.
   *
   * @param deliver - hands a frame published in another process to this channel's local subscribers
   * @param log - where warnings go
   */
  open(deliver: (topic: string, frame: Buffer) => void, log: Logger): void;
  /** The first local subscriber joined `topic`. */
  subscribe(topic: string): void;
  /** The last local subscriber left `topic`. */
  unsubscribe(topic: string): void;
  /** Forwards a frame published in this process to the others. */
  publish(topic: string, frame: Buffer): void;
  /** Disconnects (at `Channel.close()`). */
  close(): Promise<void>;
}
