// One tool call: its arguments become the operation's own request (method, path with slots filled
// and percent-encoded, query, JSON body, the caller's credentials), its answer a tool result.
import type { Exchange, InvokeAnswer, InvokeRequest } from '@api/core/extension';
import type { ToolDef } from './catalogue';

/** A `tools/call` result (MCP `CallToolResult`). */
export interface ToolResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: true;
}

/** Headers of the MCP request the operation's request carries: credentials, trace context. */
const FORWARDED = ['authorization', 'cookie', 'traceparent', 'tracestate'] as const;

/** A tool error the model can read and correct (MCP: input mistakes are tool errors, not protocol errors). */
export function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The operation's request for a call (for `wiring.invoke`), or a tool error when an argument
 * cannot be put on the wire (a path slot missing or not a string/number/boolean). The route itself
 * validates the rest.
 *
 * @param def - The tool.
 * @param args - The call's `arguments`.
 * @param outer - What of the MCP request it inherits: its origin, headers and request id, and its
 *   exchange (its client leaving is the operation's client leaving).
 */
export function requestOf(
  def: ToolDef,
  args: Readonly<Record<string, unknown>>,
  outer: {
    readonly origin: string;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
    readonly requestId: string;
    readonly exchange: Exchange;
  },
): InvokeRequest | ToolResult {
  const { input } = def;
  let path = def.path;
  for (const slot of input.slots) {
    const value = args[slot];
    if (!isScalar(value)) return toolError(`Argument "${slot}" is required: a string or a number.`);
    const text = String(value);
    // A dot segment: any HTTP client would resolve it away and reach another route (`/a/{x}/b`
    // with ".." is `/b`), so it is no value a path can carry.
    if (text === '.' || text === '..') return toolError(`Argument "${slot}" cannot be "." or "..".`);
    const segment = encodeURIComponent(text);
    path = path.replace(`{${slot}}`, () => segment);
  }
  let query: URLSearchParams | undefined;
  for (const name of input.query) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    query ??= new URLSearchParams();
    for (const item of Array.isArray(value) ? value : [value])
      query.append(name, isScalar(item) ? String(item) : JSON.stringify(item));
  }
  let body: unknown;
  if (input.body === 'field') body = args.body;
  else if (input.body === 'fields') {
    const fields: Record<string, unknown> = {};
    let given = false;
    for (const [name, value] of Object.entries(args))
      if (!input.slots.includes(name) && !input.query.has(name)) {
        fields[name] = value;
        given = true;
      }
    body = given || !input.bodyOptional ? fields : undefined;
  }
  const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': outer.requestId };
  for (const name of FORWARDED) {
    const value = outer.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const search = query === undefined ? '' : query.toString();
  return {
    method: def.method,
    path,
    query: search,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    parent: outer.exchange,
    origin: outer.origin,
  };
}

/** The body's text, as `Response.text()` reads it (UTF-8, a leading BOM dropped, bad bytes replaced). */
const utf8 = new TextDecoder();

/** The tool result of the operation's answer: a 4xx/5xx a tool error with the Problem's title and detail. */
export function resultOf(def: ToolDef, answer: InvokeAnswer): ToolResult {
  const text = utf8.decode(answer.body);
  const type = answer.headers['content-type'];
  let json: unknown;
  let isJson = false;
  if (typeof type === 'string' && /^application\/([\w.+-]*\+)?json\b/i.test(type))
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      isJson = false; // the app said JSON and sent something else: passed on as text
    }
  if (answer.status >= 400) return toolError(problemText(answer.status, isJson ? json : undefined));
  if (!isJson) return { content: [{ type: 'text', text: text || `${answer.status} (no content)` }] };
  const content = [{ type: 'text' as const, text }];
  if (def.output === 'wrapped') return { content, structuredContent: { result: json } };
  if (typeof json === 'object' && json !== null && !Array.isArray(json))
    return { content, structuredContent: json as Record<string, unknown> };
  return { content };
}

/** `404 Widget not found: No widget "w-1".` from a Problem (or the status alone). Never a stack. */
function problemText(status: number, body: unknown): string {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  // The status alone says "Error": an answer carries no reason phrase (neither did a fetch Response's).
  const title = typeof problem.title === 'string' ? problem.title : 'Error';
  const detail = typeof problem.detail === 'string' ? `: ${problem.detail}` : '';
  return `${status} ${title}${detail}`;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
