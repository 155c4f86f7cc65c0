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

/** How long a browser waits before reconnecting (sent only to a client that is up to date). */
const RECONNECT_MS = 3000;

/**
 * GET /notifications: the notification log as Server-Sent Events, then an open, idle stream
 * (a `: ping` every 15 s keeps proxies from closing it). A reconnecting EventSource sends
 * `Last-Event-ID`; the feed resumes after that id.
 */
export class NotificationsEndpoint extends Endpoint('/notifications', { meta: { tags: [streams] } }) {
  get = this.operation(
    {
      headers: NotificationHeaders,
      returns: SSEResponse.of(Notification),
      meta: { summary: 'Subscribe to widget notifications (Server-Sent Events).' },
    },
    ({ headers }) => {
      const after = Number.parseInt(headers.last_event_id ?? '0', 10) || 0;
      const due = NOTIFICATIONS.filter((n) => n.id > after);
      async function* feed() {
        // The head goes out with the first item: a client that has seen everything gets a
        // field-only event (no dispatch in the browser), so it is answered at once, not left waiting.
        if (due.length === 0) yield new ServerSentEvent({ retry: RECONNECT_MS });
        for (const n of due)
          yield new ServerSentEvent({ event: n.event, id: String(n.id), data: { message: n.message } });
        // Nothing more to say: stay open until the client leaves (or the server shuts down).
        await new Promise<never>(() => undefined);
      }
      return new SSEResponse({ stream: feed(), keepalive: 15 });
    },
  );
}
