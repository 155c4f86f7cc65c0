// The chat: WS /chat on this page's origin. A browser cannot set an Authorization header on a
// WebSocket, so the page first starts a cookie session (POST /session with the demo's token); the
// browser then sends the `session_id` cookie with the handshake, and its Origin, which the server
// checks against its allow-list.
import { SocketClosedError } from '@api/client';
import { api, describeFailure, TOKEN } from './api';

const $ = (id: string): HTMLElement => document.getElementById(id)!;

function chatLine(text: string): void {
  const li = document.createElement('li');
  li.textContent = text;
  const log = $('chat-log');
  log.append(li);
  log.scrollTop = log.scrollHeight;
}

function setStatus(text: string, state: string): void {
  const status = $('chat-status');
  status.textContent = text;
  status.dataset.state = state;
}

/** Opens /chat; every chat-message goes to the log. Reconnects after a drop or a restart. */
async function connectChat(): Promise<void> {
  const socket = await api.chat.connect().catch((error: unknown) => error as Error);
  if (socket instanceof Error) {
    const code = socket instanceof SocketClosedError ? socket.close.code : 0;
    setStatus(`closed (${code})`, 'down');
    setTimeout(() => void connectChat(), 2000);
    return;
  }
  setStatus('connected', 'ok');
  ($('chat-form') as HTMLFormElement).onsubmit = (event) => {
    event.preventDefault();
    const input = $('chat-text') as HTMLInputElement;
    if (!input.value) return;
    socket.send({ type: 'send-message', text: input.value });
    input.value = '';
  };
  for await (const message of socket) chatLine(`${message.from}: ${message.text}`);
  const { code, reason } = await socket.closed;
  setStatus(`closed (${code}${reason ? ` ${reason}` : ''})`, 'down');
  // 1008/4xxx are refusals; a dropped connection (1006) or a restart (1001, 1013) retries.
  if ([1001, 1006, 1013].includes(code)) setTimeout(() => void connectChat(), 2000);
}

export async function startChat(): Promise<void> {
  const session = await api.session.post({ json: { token: TOKEN } });
  if (session.ok) await connectChat();
  else setStatus(`no session (${describeFailure(session)})`, 'down');
}
