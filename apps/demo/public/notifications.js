// A live view of GET /notifications: one list item per typed event. When the connection drops,
// the browser reconnects by itself and sends Last-Event-ID; the server resumes after that id.
const list = document.getElementById('events');
const state = document.getElementById('state');
const source = new EventSource('/notifications');

source.onopen = () => {
  state.textContent = 'connected';
  state.dataset.state = 'ok';
};
source.onerror = () => {
  state.textContent = 'reconnecting…';
  state.dataset.state = 'down';
};
for (const type of ['widget.created', 'widget.updated', 'widget.deleted']) {
  source.addEventListener(type, (event) => {
    const item = document.createElement('li');
    item.dataset.id = event.lastEventId;
    item.textContent = `${type} #${event.lastEventId}: ${JSON.parse(event.data).message}`;
    list.append(item);
  });
}
