// The demo pages' API client: @api/client, typed from the server's route classes through
// `import type` (erased by the bundler: no server code reaches the browser). The token is the
// demo's fixed bearer token (see apps/demo/src/app.ts); never do this in production.
import { createClient, route, type Authenticated } from '@api/client';
import type { InvalidTokenError } from '../src/errors';
import type { SessionEndpoint } from '../src/operations/session';
import type { ChatSocket } from '../src/operations/sockets';
import type { NotificationsEndpoint, QuestionsEndpoint } from '../src/operations/streams';
import type { HealthEndpoint } from '../src/operations/system';
import type { WidgetResource } from '../src/operations/widgets';

export const TOKEN = 'token';

export const api = createClient({
  baseUrl: '',
  bearer: TOKEN,
  routes: {
    health: route<HealthEndpoint>('/healthz'),
    widgets: route<Authenticated<WidgetResource, typeof InvalidTokenError>>('/widgets'),
    questions: route<QuestionsEndpoint>('/questions'),
    notifications: route<NotificationsEndpoint>('/notifications'),
    session: route<SessionEndpoint>('/session'),
    chat: route<ChatSocket>('/chat'),
  },
});

/** A failure as one line: the Problem's title when the body is one, else the status. */
export function describeFailure(failure: { readonly status: number; readonly error: unknown }): string {
  const title = (failure.error as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' ? `${failure.status} ${title}` : `HTTP ${failure.status}`;
}
