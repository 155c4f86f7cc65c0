// The route catalogue → MCP tools, once at wiring: which operations, their names, input and output
// schemas and annotations.
import {
  isOptional,
  isStandardSchema,
  objectEntries,
  standardFields,
  wiringError,
  type RouteInfo,
} from '@api/core/extension';
import type { ToolSelector } from '../options';
import { inputOf, outputOf, type InputPlan, type OutputMode } from './schemas';

/** One tool: its `tools/list` entry and how a call becomes the operation's request. */
export interface ToolDef {
  /** `Owner.operation`, for messages. */
  readonly where: string;
  readonly method: string;
  /** The route's path template (`/widgets/{widget_id}`). */
  readonly path: string;
  readonly input: InputPlan;
  readonly output: OutputMode;
  /** The `tools/list` entry. */
  readonly tool: Readonly<Record<string, unknown>>;
}

/** What chooses and names the tools (from `mcp()`'s checked options). */
export interface ToolChoice {
  readonly tools: 'all' | readonly ToolSelector[];
  readonly exclude: readonly ToolSelector[];
  readonly names: Readonly<Record<string, string>>;
}

/** MCP's rule for tool names (specification 2025-11-25, "Tool names"). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Response kinds a tool result can carry: one buffered JSON or text answer, or none. */
const BUFFERED = new Set(['json', 'text', 'empty']);
const WHERE = 'mcp(options)';

/**
 * The tools of an app: the operations `choice` selects that can be tools, in catalogue order.
 *
 * @param routes - The finished catalogue's routes.
 * @param choice - `tools`, `exclude` and `names`.
 */
export function toolsOf(routes: readonly RouteInfo[], choice: ToolChoice): ToolDef[] {
  const candidates = routes.filter(
    (r) => r.kind === 'operation' && !r.hidden && r.mountOptions.mcp !== false,
  );
  const picked = new Set<RouteInfo>();
  if (choice.tools === 'all') {
    for (const r of candidates) if (whyNot(r) === undefined) picked.add(r);
  } else {
    for (const selector of choice.tools) {
      const hits = matching(candidates, selector, 'tools');
      for (const r of hits) {
        const reason = whyNot(r);
        // A class brings the operations that can be tools; a named operation must be one.
        if (reason === undefined) picked.add(r);
        else if (typeof selector === 'string' && selector.includes('.'))
          throw wiringError(
            'API_WIRING_MCP_SELECTOR',
            WHERE,
            `tools names ${selector}, which cannot be a tool: it ${reason}`,
            `leave it out of tools (operations that stream or read forms are not tools)`,
          );
      }
    }
  }
  for (const selector of choice.exclude)
    for (const r of matching(candidates, selector, 'exclude')) picked.delete(r);
  const byName = new Map<string, string>();
  const named = new Set<string>();
  const defs: ToolDef[] = [];
  for (const route of routes) {
    if (!picked.has(route)) continue;
    const where = `${route.owner}.${route.operation}`;
    const override = choice.names[where];
    if (override !== undefined) named.add(where);
    const name = override ?? defaultName(route);
    if (!TOOL_NAME.test(name))
      throw wiringError(
        'API_WIRING_MCP_TOOL_NAME',
        `${WHERE}: ${where}`,
        `tool name ${JSON.stringify(name)} is not 1-128 of A-Z a-z 0-9 _ - .`,
        `name it in names: { '${where}': '${name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128) || 'tool'}' }`,
      );
    const taken = byName.get(name);
    if (taken !== undefined)
      throw wiringError(
        'API_WIRING_DUPLICATE',
        `${WHERE}: ${where}`,
        `tool name "${name}" is already ${taken}'s`,
        `give one of them another name: names: { '${where}': '…' }`,
      );
    byName.set(name, where);
    defs.push(toolDef(route, name, where));
  }
  for (const key of Object.keys(choice.names))
    if (!named.has(key))
      throw wiringError(
        'API_WIRING_MCP_SELECTOR',
        WHERE,
        `names has ${JSON.stringify(key)}, which is not one of the tools`,
        `key names by 'Class.operation' of an operation that is a tool (${[...byName.values()].slice(0, 3).join(', ') || 'there are none'})`,
      );
  return defs;
}

/** Why `route` cannot be a tool (`undefined`: it can). */
function whyNot(route: RouteInfo): string | undefined {
  const spec = route.spec ?? {};
  if (spec.form) return 'reads a multipart form';
  if (spec.content) return 'reads the raw body';
  for (const [source, label] of [
    ['headers', 'header'],
    ['cookies', 'cookie'],
  ] as const) {
    const needed = requiredFields(spec[source])[0];
    if (needed !== undefined) return `needs the ${label} ${needed}, which a tool call cannot send`;
  }
  const streamed = route.responses.find((r) => !BUFFERED.has(r.kind));
  if (streamed) return `answers with a ${streamed.kind} response, which a tool result cannot carry`;
  return undefined;
}

/** The candidates `selector` names; none is a mistake (a typo would silently offer nothing). */
function matching(candidates: readonly RouteInfo[], selector: ToolSelector, option: string): RouteInfo[] {
  const hits = candidates.filter((r) =>
    typeof selector === 'function'
      ? r.ownerClass === selector
      : selector.includes('.')
        ? `${r.owner}.${r.operation}` === selector
        : r.owner === selector,
  );
  if (hits.length === 0) {
    const shown = typeof selector === 'function' ? `class ${selector.name}` : JSON.stringify(selector);
    throw wiringError(
      'API_WIRING_MCP_SELECTOR',
      WHERE,
      `${option} has ${shown}, which names no operation the app mounts (mounts with mcp: false are left out)`,
      "name a mounted route class, its name ('WidgetResource') or one operation ('WidgetResource.create')",
    );
  }
  return hits;
}

/** The operationId `@api/openapi` gives the route: `meta.operationId`, else `<Class>_<operation>`, plus the mount prefix. */
function defaultName(route: RouteInfo): string {
  const declared = route.spec?.meta?.operationId ?? `${route.owner}_${route.operation}`;
  if (route.mountPrefix === undefined) return declared;
  const prefix = route.mountPrefix
    .slice(1)
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return `${declared}_${prefix}`;
}

/** The `tools/list` entry and the call plan of one operation. */
function toolDef(route: RouteInfo, name: string, where: string): ToolDef {
  const meta = route.spec?.meta ?? {};
  const summary = meta.summary ?? route.classMeta?.summary;
  const description = meta.description ?? route.classMeta?.description;
  const input = inputOf(route, `${WHERE}: ${name} (${where})`);
  const output = outputOf(route, `${WHERE}: ${name} (${where})`);
  const tool: Record<string, unknown> = { name };
  if (summary !== undefined) tool.title = summary;
  const text = [summary, description].filter((s) => s !== undefined).join('\n\n');
  tool.description = text || `${route.method} ${route.path}`;
  tool.inputSchema = input.schema;
  if (output.schema) tool.outputSchema = output.schema;
  const annotations = annotationsOf(route.method);
  if (annotations) tool.annotations = annotations;
  return { where, method: route.method, path: route.path, input, output: output.mode, tool };
}

/** MCP's hints from the method: GET/HEAD read only, DELETE destructive, PUT idempotent. */
function annotationsOf(method: string): Record<string, boolean> | undefined {
  if (method === 'GET' || method === 'HEAD') return { readOnlyHint: true };
  if (method === 'DELETE') return { destructiveHint: true };
  if (method === 'PUT') return { idempotentHint: true };
  return undefined;
}

/** The names of an object schema's required fields (valibot or Standard Schema; none for no schema). */
function requiredFields(schema: unknown): string[] {
  if (schema === undefined) return [];
  if (isStandardSchema(schema))
    return (standardFields(schema) ?? []).filter((f) => f.required && !f.hasDefault).map((f) => f.key);
  const entries = objectEntries(schema as Parameters<typeof objectEntries>[0]) ?? {};
  return Object.entries(entries)
    .filter(([, field]) => !isOptional(field))
    .map(([name]) => name);
}
