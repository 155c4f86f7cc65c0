import * as v from 'valibot';
import type { MountOptions } from '@api/core';
import { checkOptions, isPlainObject, wiringError, type RequestHead } from '@api/core/extension';

/** A route class (every operation of it) or a name: `'WidgetResource'`, `'WidgetResource.create'`. */
export type ToolSelector = string | (abstract new (...args: never[]) => object);

/** Options of `mcp()`: what becomes a tool, the server's name, the endpoint's security; mount options apply to it. */
export interface McpOptions extends Omit<MountOptions, 'prefix'> {
  /** Where the Streamable HTTP endpoint is served. Default `'/mcp'`. */
  readonly path?: string;
  /**
   * Which operations become tools: `'all'` (default: every documented operation that can be one),
   * or route classes and names (`'WidgetResource'`, `'WidgetResource.create'`). A mount with
   * `mcp: false` is never offered.
   */
  readonly tools?: 'all' | readonly ToolSelector[];
  /** Operations left out of `tools` (same selectors). Default none. */
  readonly exclude?: readonly ToolSelector[];
  /**
   * Tool names by operation (`{ 'WidgetResource.create': 'create_widget' }`). Default: the
   * operationId (`meta.operationId`, else `<Class>_<operation>`, as `@api/openapi` names it).
   */
  readonly names?: Readonly<Record<string, string>>;
  /** `serverInfo.name` of the initialize answer. Default: the app's class name. */
  readonly serverName?: string;
  /** `serverInfo.version`. Default `'0.1.0'`. */
  readonly serverVersion?: string;
  /** `instructions` of the initialize answer (how a model should use these tools). Default none. */
  readonly instructions?: string;
  /**
   * Origins (`https://app.example`) whose browser pages may call the endpoint. Default none: a
   * request that carries an `Origin` header is refused with 403 (the DNS-rebinding rule of the
   * MCP specification); desktop and server clients send none.
   */
  readonly allowedOrigins?: readonly string[];
  /** Open sessions at most; an initialize beyond it is a 503. Default 1000. */
  readonly maxSessions?: number;
  /** A session unused this long is closed (its id then answers 404). Default 3600. */
  readonly sessionIdleSeconds?: number;
  /**
   * What binds a session to its caller: a session id sent with another value is unknown (404).
   * Default: the `authorization` and `cookie` headers together.
   */
  readonly bindSessionTo?: (req: RequestHead) => string;
}

const whole = 'a whole number ≥ 1';
const Selector = v.union(
  [v.pipe(v.string(), v.minLength(1)), v.custom<ToolSelector>((x) => typeof x === 'function')],
  'a route class or a name such as "WidgetResource.create"',
);
const OwnOptions = v.object({
  path: v.optional(v.pipe(v.string('a path'), v.regex(/^\/[^?#{}\s]*$/, 'a path such as "/mcp"')), '/mcp'),
  tools: v.optional(v.union([v.literal('all'), v.array(Selector)], "'all' or a list of selectors"), 'all'),
  exclude: v.optional(v.array(Selector, 'a list of selectors'), []),
  names: v.optional(v.record(v.string(), v.string(), 'an object of tool names'), {}),
  serverName: v.optional(v.pipe(v.string('a name'), v.minLength(1, 'a non-empty name'))),
  serverVersion: v.optional(v.pipe(v.string('a version'), v.minLength(1, 'a non-empty version')), '0.1.0'),
  instructions: v.optional(v.string('a string')),
  allowedOrigins: v.optional(v.array(v.string('an origin'), 'a list of origins'), []),
  maxSessions: v.optional(v.pipe(v.number(whole), v.integer(whole), v.minValue(1, whole)), 1000),
  sessionIdleSeconds: v.optional(v.pipe(v.number('seconds'), v.minValue(1, 'at least 1 second')), 3600),
  bindSessionTo: v.optional(
    v.custom<(req: RequestHead) => string>((x) => typeof x === 'function', 'a function'),
  ),
});
const OWN_KEYS = Object.keys(OwnOptions.entries);

/** The checked options: defaults filled in, mount options apart. */
export type CheckedOptions = v.InferOutput<typeof OwnOptions> & {
  readonly mountOptions: Readonly<Record<string, unknown>>;
};

/** Checks `mcp(options)` (coded WiringErrors naming the option) and splits off the mount options. */
export function checkMcpOptions(options: unknown = {}): CheckedOptions {
  const where = 'mcp(options)';
  const own: Record<string, unknown> = {};
  const mountOptions: Record<string, unknown> = {};
  const plain = isPlainObject(options);
  if (plain)
    for (const [key, value] of Object.entries(options))
      (OWN_KEYS.includes(key) ? own : mountOptions)[key] = value;
  const checked = checkOptions(where, OwnOptions, plain ? own : options, {
    fixes: {
      path: "e.g. path: '/mcp'",
      tools: "tools: 'all', or tools: [WidgetResource, 'Other.readOne']",
      exclude: "e.g. exclude: ['WidgetResource.delete']",
      names: "e.g. names: { 'WidgetResource.create': 'create_widget' }",
      serverName: "e.g. serverName: 'widgets'",
      serverVersion: "e.g. serverVersion: '1.2.0'",
      instructions: "e.g. instructions: 'Widgets have unique names.'",
      allowedOrigins: "e.g. allowedOrigins: ['https://app.example']",
      maxSessions: 'e.g. maxSessions: 1000',
      sessionIdleSeconds: 'e.g. sessionIdleSeconds: 3600',
      bindSessionTo: "e.g. bindSessionTo: (req) => String(req.headers.authorization ?? '')",
    },
  });
  for (const origin of checked.allowedOrigins) {
    let exact = false;
    try {
      exact = new URL(origin).origin === origin && origin !== 'null';
    } catch {
      exact = false; // not a URL at all: refused below like any inexact origin
    }
    if (!exact)
      throw wiringError(
        'API_WIRING_MCP_ORIGIN',
        where,
        `allowedOrigins has ${JSON.stringify(origin)}, which is not an exact origin`,
        "write scheme://host[:port] with nothing after it, e.g. 'https://app.example'",
      );
  }
  return { ...checked, mountOptions };
}
