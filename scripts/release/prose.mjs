// Checks of the prose of the repository's Markdown: what a reader sees rendered.

/**
 * Code spans glued to the words around them (`405`with`Allow`, a`WiringError`): in rendered
 * Markdown they run together. A plural `s` after a span (`WiringError`s) is fine. Fenced blocks
 * are skipped. Returns each offending span with its line number.
 *
 * @param markdown - a Markdown document
 */
export function gluedCodeSpans(markdown) {
  const found = [];
  const lines = markdown.split('\n');
  let fenced = false;
  let paragraph = [];
  const flush = () => {
    const text = paragraph.map((p) => p.text).join('\n');
    const lineAt = (offset) => {
      let seen = 0;
      for (const p of paragraph) {
        if (offset <= seen + p.text.length) return p.line;
        seen += p.text.length + 1;
      }
      return paragraph.at(-1)?.line;
    };
    let i = 0;
    while (i < text.length) {
      if (text[i] !== '`') {
        i++;
        continue;
      }
      let n = 0;
      while (text[i + n] === '`') n++;
      const fence = '`'.repeat(n);
      let end = text.indexOf(fence, i + n);
      while (end >= 0 && text[end + n] === '`') end = text.indexOf(fence, end + n + 1);
      if (end < 0) break;
      const before = text[i - 1] ?? ' ';
      const after = text[end + n] ?? ' ';
      const gluedAfter =
        /[A-Za-z0-9]/.test(after) && !(after === 's' && !/[A-Za-z0-9]/.test(text[end + n + 1] ?? ' '));
      if (/[A-Za-z0-9]/.test(before) || gluedAfter)
        found.push({ line: lineAt(i), span: text.slice(i, end + n) });
      i = end + n;
    }
    paragraph = [];
  };
  lines.forEach((text, index) => {
    if (/^\s*```/.test(text)) {
      flush();
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    if (text.trim() === '') flush();
    else paragraph.push({ text, line: index + 1 });
  });
  flush();
  return found;
}
