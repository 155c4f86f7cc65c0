// The exchanges `README.md` documents, as data: every ```http block is a request and the answer
// the demo gives it, so the README and the demo cannot drift (test/readme.test.ts sends each).
//
// A block is the request (`METHOD /path`, header lines, a blank line, an optional body), then the
// answer from its `HTTP/1.1 <status>` line (header lines, a blank line, an optional body). In a
// documented header value or JSON string, `…` stands for any text; a JSON body lists the fields
// it shows (an object may have more, an array has exactly the items shown); any other body is
// the start of what arrives (a stream is read until that much has come).

/** One documented request and its answer. */
export interface DocumentedExchange {
  /** The block's first line, e.g. `GET /healthz` (names the test). */
  readonly title: string;
  readonly method: string;
  readonly path: string;
  readonly requestHeaders: readonly (readonly [string, string])[];
  readonly requestBody: string | undefined;
  readonly status: number;
  readonly responseHeaders: readonly (readonly [string, string])[];
  readonly responseBody: string;
}

function headerLines(lines: readonly string[], where: string): [string, string][] {
  return lines.map((line) => {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`${where}: "${line}" is not a header line (name: value)`);
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
}

/** Splits lines at the first blank line: the head lines, and the rest joined (trimmed). */
function headAndBody(lines: readonly string[]): [string[], string] {
  const blank = lines.findIndex((l) => l.trim() === '');
  if (blank < 0) return [[...lines], ''];
  return [
    lines.slice(0, blank),
    lines
      .slice(blank + 1)
      .join('\n')
      .trim(),
  ];
}

/** Every ```http block of a README, parsed; a block that does not parse throws, naming it. */
export function documentedExchanges(markdown: string): DocumentedExchange[] {
  const blocks = [...markdown.matchAll(/^```http\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.map((block) => {
    const lines = block.replace(/\n$/, '').split('\n');
    const title = lines[0] ?? '';
    const at = lines.findIndex((l) => /^HTTP\/1\.1 \d{3}\b/.test(l));
    if (at < 0) throw new Error(`README block "${title}": no "HTTP/1.1 <status>" answer line`);
    const [requestHead, requestBody] = headAndBody(lines.slice(0, at));
    const [requestLine, ...requestHeaderLines] = requestHead;
    const [method, path] = (requestLine ?? '').split(' ');
    if (!method || !path?.startsWith('/'))
      throw new Error(`README block "${title}": expected "METHOD /path"`);
    const [responseHead, responseBody] = headAndBody(lines.slice(at));
    const [statusLine, ...responseHeaderLines] = responseHead;
    return {
      title,
      method,
      path,
      requestHeaders: headerLines(requestHeaderLines, `README block "${title}"`),
      requestBody: requestBody === '' ? undefined : requestBody,
      status: Number(statusLine!.split(' ')[1]),
      responseHeaders: headerLines(responseHeaderLines, `README block "${title}"`),
      responseBody,
    };
  });
}

/** True when `text` is `pattern`, where each `…` in the pattern stands for any text. */
export function matchesText(pattern: string, text: string): boolean {
  const parts = pattern.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`).test(text);
}

/**
 * Where `actual` differs from the documented JSON `documented` (undefined: it matches): strings
 * with `…` match any text there, objects need the documented fields, arrays exactly the items.
 */
export function jsonMismatch(documented: unknown, actual: unknown, at = '$'): string | undefined {
  if (typeof documented === 'string' && documented.includes('…'))
    return typeof actual === 'string' && matchesText(documented, actual)
      ? undefined
      : `${at}: expected ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`;
  if (Array.isArray(documented)) {
    if (!Array.isArray(actual) || actual.length !== documented.length)
      return `${at}: expected ${documented.length} items, got ${JSON.stringify(actual)}`;
    for (let i = 0; i < documented.length; i++) {
      const m = jsonMismatch(documented[i], actual[i], `${at}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (typeof documented === 'object' && documented !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(documented)) {
      const m = jsonMismatch(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
      if (m) return m;
    }
    return undefined;
  }
  return Object.is(documented, actual)
    ? undefined
    : `${at}: expected ${JSON.stringify(documented)}, got ${JSON.stringify(actual)}`;
}

/** The URLs a documented answer points at: its `location`, and each `<…>` of its `link`. */
export function pointedAt(headers: Headers): string[] {
  const out: string[] = [];
  const location = headers.get('location');
  if (location) out.push(location);
  for (const m of (headers.get('link') ?? '').matchAll(/<([^>]+)>/g)) out.push(m[1]!);
  return out;
}
