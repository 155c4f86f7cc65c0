// The demo page's chat: a browser WebSocket to `/chat` on this page's origin. A browser cannot set
// an Authorization header on a WebSocket, so the page first starts a cookie session
// (POST /session with the demo's fixed token, as app.js uses it; never do this in production);
// the browser then sends the `session_id` cookie with the handshake, and its Origin, which the
// server checks against its allow-list.
const chatEl = (id) => document.getElementById(id);

function chatLine(text, className) {
  const li = document.createElement('li');
  li.textContent = text;
  if (className) li.className = className;
  const log = chatEl('chat-log');
  log.append(li);
  log.scrollTop = log.scrollHeight;
}

function setStatus(text, state) {
  const status = chatEl('chat-status');
  status.textContent = text;
  status.dataset.state = state;
}

/** Opens `/chat`; every `chat-message` is appended to the log. Reconnects after a drop. */
function connectChat() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${scheme}//${location.host}/chat`);
  socket.addEventListener('open', () => setStatus('connected', 'ok'));
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'chat-message') chatLine(`${message.from}: ${message.text}`);
  });
  socket.addEventListener('close', (event) => {
    setStatus(`closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`, 'down');
    // 1008/4xxx are refusals; a dropped connection (1006) or a restart (1001, 1013) retries.
    if ([1001, 1006, 1013].includes(event.code)) setTimeout(connectChat, 2000);
  });
  chatEl('chat-form').onsubmit = (event) => {
    event.preventDefault();
    const input = chatEl('chat-text');
    if (!input.value || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: 'send-message', text: input.value }));
    input.value = '';
  };
}

const session = await fetch('/session', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ token: 'token' }),
});
if (session.status === 204) connectChat();
else setStatus(`no session (HTTP ${session.status})`, 'down');
