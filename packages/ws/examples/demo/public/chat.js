// The demo page's chat (ready to paste into apps/demo/public/app.js): a browser WebSocket to
// `/chat` on this page's origin. The browser sends the `session_id` cookie with the handshake
// (it cannot set an Authorization header on a WebSocket), and its Origin, which the server checks.
const chatEl = (id) => document.getElementById(id);

function chatLine(text, className) {
  const li = document.createElement('li');
  li.textContent = text;
  if (className) li.className = className;
  chatEl('chat-log').append(li);
}

/** Opens `/chat`; every `chat-message` is appended to the log. Reconnects after a drop. */
function connectChat() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${scheme}//${location.host}/chat`);
  const status = chatEl('chat-status');
  socket.addEventListener('open', () => {
    status.textContent = 'connected';
    status.dataset.state = 'ok';
  });
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'chat-message') chatLine(`${message.from}: ${message.text}`);
  });
  socket.addEventListener('close', (event) => {
    status.textContent = `closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`;
    status.dataset.state = 'down';
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

connectChat();
