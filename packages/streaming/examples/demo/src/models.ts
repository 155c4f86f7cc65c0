// To paste into apps/demo/src/models.ts: the models of the streaming routes.
import * as v from 'valibot';
import { Struct } from '@api/core';

/** The body of POST /questions. */
export const Question = Struct('Question', { text: v.pipe(v.string(), v.minLength(1), v.maxLength(2000)) });

/** One NDJSON line of the answer to a question. */
export const AnswerChunk = Struct('AnswerChunk', { text: v.string() }, { description: 'A piece of the answer.' });

/** The data of a GET /notifications event. */
export const Notification = Struct('Notification', { message: v.string() });

/** GET /notifications reads `Last-Event-ID` (sent by a reconnecting EventSource) as an ordinary header. */
export const NotificationHeaders = Struct('NotificationHeaders', {
  last_event_id: v.optional(v.pipe(v.string(), v.maxLength(20))),
});
