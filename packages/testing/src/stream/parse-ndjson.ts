/**
 * An incremental NDJSON decoder: feed text as it arrives, get the items whose line ended.
 * Blank lines are skipped; a line that is not JSON throws a `SyntaxError` naming it.
 *
 * @example
 * const decoder = new NDJSONDecoder();
 * decoder.push('{"a":1}\n{"a"'); // [{ a: 1 }]
 * decoder.push(':2}\n');         // [{ a: 2 }]
 */
export class NDJSONDecoder {
  #buffer = '';

  /**
   * Feeds text; returns the items it completed.
   *
   * @param text - The next piece of the stream (any split, even mid-line).
   */
  push(text: string): unknown[] {
    this.#buffer += text;
    const lines = this.#buffer.split('\n');
    this.#buffer = lines.pop() ?? '';
    return lines.flatMap(parseLine);
  }

  /** Ends the stream, decoding a last line that had no trailing newline. */
  end(): unknown[] {
    const rest = this.#buffer;
    this.#buffer = '';
    return parseLine(rest);
  }
}

function parseLine(line: string): unknown[] {
  const trimmed = line.trim();
  if (trimmed === '') return [];
  try {
    return [JSON.parse(trimmed) as unknown];
  } catch (error) {
    throw new SyntaxError(`NDJSON: line is not JSON: ${JSON.stringify(trimmed.slice(0, 200))}`, {
      cause: error,
    });
  }
}

/**
 * Decodes a buffered NDJSON body (one JSON value per line) into its items.
 *
 * @param text - The whole body.
 * @example
 * parseNDJSON('{"a":1}\n{"a":2}\n'); // [{ a: 1 }, { a: 2 }]
 */
export function parseNDJSON<T = unknown>(text: string): T[] {
  const decoder = new NDJSONDecoder();
  return [...decoder.push(text), ...decoder.end()] as T[];
}
