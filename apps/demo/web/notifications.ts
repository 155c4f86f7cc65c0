// A live view of GET /notifications through @api/client: one list item per typed event. When the
// connection drops, the subscription reconnects with Last-Event-ID; the server resumes after it.
import { api, describeFailure } from './api';

const list = document.getElementById('events')!;
const state = document.getElementById('state')!;

const answer = await api.notifications.get();
if (!answer.ok) {
  state.textContent = describeFailure(answer);
  state.dataset.state = 'down';
} else {
  state.textContent = 'connected';
  state.dataset.state = 'ok';
  for await (const event of answer.data) {
    const item = document.createElement('li');
    item.dataset.id = event.id ?? '';
    const message = typeof event.data === 'string' ? event.data : event.data.message;
    item.textContent = `${event.event} #${event.id ?? ''}: ${message}`;
    list.append(item);
  }
}
