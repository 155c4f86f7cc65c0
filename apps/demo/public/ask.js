// The demo page's "Ask" panel: POST /questions and show the NDJSON answer as it streams in.
const askForm = document.getElementById('ask');
const answerEl = document.getElementById('answer');

/** Yields each JSON line of a streamed NDJSON response body as it arrives. */
async function* ndjsonLines(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line) yield JSON.parse(line);
    }
  }
}

askForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = String(new FormData(askForm).get('text') ?? '').trim();
  if (!text) return;
  answerEl.textContent = '';
  answerEl.dataset.state = 'streaming';
  const res = await fetch('/questions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  if (!res.ok || !res.body) {
    answerEl.textContent = `HTTP ${res.status}`;
    answerEl.dataset.state = 'error';
    return;
  }
  for await (const chunk of ndjsonLines(res.body)) answerEl.textContent += chunk.text;
  answerEl.dataset.state = 'done';
});
