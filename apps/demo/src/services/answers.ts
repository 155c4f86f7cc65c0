// A local answer generator for POST /questions: no network, no model.
/** Canned knowledge: the first entry whose keyword appears in the question answers it. */
const ANSWERS: readonly (readonly [keyword: string, answer: string])[] = [
  ['widget', 'A widget is anything you can create, list, rename, reprice and delete at /widgets.'],
  ['stream', 'This answer is streamed as NDJSON: one JSON object per line, written as it is produced.'],
  ['price', 'Prices are integers in cents, so 1999 means 19.99.'],
];
const FALLBACK = 'I do not know yet, but I can tell you about widgets, streams and prices.';

/**
 * Answers a question word by word, like a model that produces tokens: an async generator, so
 * the response streams while the answer is being "thought of".
 *
 * @param question - the question text
 * @param delayMs - pause between words (0 in tests)
 */
export async function* answer(question: string, delayMs = 20): AsyncGenerator<{ text: string }> {
  const lower = question.toLowerCase();
  const text = ANSWERS.find(([keyword]) => lower.includes(keyword))?.[1] ?? FALLBACK;
  const words = text.split(' ');
  for (const [i, word] of words.entries()) {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield { text: i === 0 ? word : ` ${word}` };
  }
}
