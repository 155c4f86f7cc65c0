import { Endpoint, Tag } from '@api/core';
import { NDJSONStreamingResponse, ServerSentEvent, SSEResponse } from '@api/streaming';
import { AnswerChunk, Notification, NotificationHeaders, Question } from '../models';
import { answer } from '../services/answers';

const streams = new Tag('streams', 'Answers and notifications, streamed.');

/** POST /questions: the answer to `{ text }`, streamed as NDJSON `{ text }` chunks. */
export class QuestionsEndpoint extends Endpoint('/questions', { meta: { tags: [streams] } }) {
  /** @param delayMs - pause between words (the demo "thinks"; tests pass 0) */
  constructor(private readonly delayMs = 20) {
    super();
  }

  post = this.operation(
    {
      json: Question,
      returns: NDJSONStreamingResponse.of(AnswerChunk),
      meta: { summary: 'Ask a question; the answer streams back as NDJSON chunks.' },
    },
    ({ json }) => new NDJSONStreamingResponse({ stream: answer(json.text, this.delayMs) }),
  );
}

/** The demo's notification log: ids 1–3, in order. */
const NOTIFICATIONS = [
  { id: 1, event: 'widget.created', message: 'Widget "sprocket" was created' },
  { id: 2, event: 'widget.updated', message: 'Widget "sprocket" was repriced' },
  { id: 3, event: 'widget.deleted', message: 'Widget "sprocket" was deleted' },
] as const;

/**
 * GET /notifications: the notification log as Server-Sent Events, then an open, idle stream
 * (a `: ping` every 15 s keeps proxies from closing it). A reconnecting EventSource sends
 * `Last-Event-ID`; the feed resumes after that id. The feed is a lifecycle generator: its setup
 * (what is due after `Last-Event-ID`) is the gate, so the head goes out as soon as it ran and a
 * client that has seen everything is connected at once, with no event.
 */
export class NotificationsEndpoint extends Endpoint('/notifications', { meta: { tags: [streams] } }) {
  /** @param keepaliveSeconds - idle seconds before a `: ping` comment (tests pass less) */
  constructor(private readonly keepaliveSeconds = 15) {
    super();
  }

  get = this.operation(
    {
      headers: NotificationHeaders,
      returns: SSEResponse.of(Notification),
      meta: { summary: 'Subscribe to widget notifications (Server-Sent Events).' },
    },
    ({ headers }) => {
      async function* feed() {
        // Setup: what is due after the client's last event. A failure here is a normal error response.
        const after = Number.parseInt(headers.last_event_id ?? '0', 10) || 0;
        const due = NOTIFICATIONS.filter((n) => n.id > after);
        // The stream: the due events, then nothing more; open until the client leaves or shutdown.
        yield (async function* () {
          for (const n of due)
            yield new ServerSentEvent({ event: n.event, id: String(n.id), data: { message: n.message } });
          await new Promise<never>(() => undefined);
        })();
      }
      return new SSEResponse({ stream: feed(), keepalive: this.keepaliveSeconds });
    },
  );
}
