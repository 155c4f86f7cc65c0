// What the release check reads from a README. The conventions keep the README a plain example:
// - the first ```sh block holds the install line(s): `pnpm add …` (`-D` for dev dependencies);
// - the first ```ts block is the runnable example: a complete ES module that starts the app (e.g.
//   `serve(app, { port: 0 })` or `TestClient`), makes requests and stops, so it exits by itself;
// - a trailing `// → text` comment on a line of the example is what that line prints: the check
//   runs the example and expects every such text, in order, as a line of its output.

/** The fenced code blocks of a Markdown document, in order: `{ lang, code }`. */
export function codeBlocks(markdown) {
  return [...markdown.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```\s*$/gm)].map(([, lang, code]) => ({
    lang,
    code,
  }));
}

/** The README's runnable example: its first ```ts block. */
export function exampleOf(markdown) {
  return codeBlocks(markdown).find((block) => block.lang === 'ts')?.code;
}

/**
 * The packages the README's install block adds: `[{ name, dev }]` from its `pnpm add` lines
 * (the first ```sh block, or every ```sh block with `all`).
 */
export function installsOf(markdown, { all = false } = {}) {
  const sh = codeBlocks(markdown).filter((block) => block.lang === 'sh');
  const lines = (all ? sh : sh.slice(0, 1)).flatMap((block) => block.code.split('\n'));
  return lines
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('pnpm add '))
    .flatMap((line) => {
      const words = line.split(/\s+/).slice(2);
      const dev = words.includes('-D') || words.includes('--save-dev');
      return words.filter((word) => !word.startsWith('-')).map((name) => ({ name, dev }));
    });
}

/** The output the example promises: the `// → text` comments, in order. */
export function promisedOutput(source) {
  return [...source.matchAll(/\/\/ → (.*)$/gm)].map(([, text]) => text.trim());
}

/** The `## ` headings of a Markdown document, outside code blocks. */
export function headingsOf(markdown) {
  const prose = markdown.replace(/^```[\s\S]*?^```\s*$/gm, '');
  return [...prose.matchAll(/^## (.+)$/gm)].map(([, heading]) => heading.trim());
}
