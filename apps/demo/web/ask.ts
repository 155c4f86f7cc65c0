// The "Ask" panel: POST /questions, the NDJSON answer shown chunk by chunk as it streams in.
import { api, describeFailure } from './api';

export function startAsk(): void {
  const form = document.getElementById('ask') as HTMLFormElement;
  const out = document.getElementById('answer')!;
  let current: AbortController | undefined;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const given = new FormData(form).get('text');
    const text = typeof given === 'string' ? given.trim() : '';
    if (!text) return;
    // A new question ends the stream of the previous one.
    current?.abort();
    const controller = (current = new AbortController());
    out.textContent = '';
    out.dataset.state = 'streaming';
    void (async () => {
      const answer = await api.questions.post({ json: { text }, signal: controller.signal });
      if (!answer.ok) {
        out.textContent = describeFailure(answer);
        out.dataset.state = 'error';
        return;
      }
      for await (const chunk of answer.data) out.textContent += chunk.text;
      if (!controller.signal.aborted) out.dataset.state = 'done';
    })();
  });
}
