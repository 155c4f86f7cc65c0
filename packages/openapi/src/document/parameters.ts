import { formFieldKind, parseTemplate, type RouteInfo, toHeaderName } from '@api/core/extension';
import { BINARY, isOptional, objectEntries, type JsonSchema, type SchemaNode } from './json-schema';
import type { SchemaRegistry } from './schemas';

/** Headers the document says elsewhere (`requestBody` media types, `security`), never as parameters. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * An operation's `parameters`: one per path slot (in template order), then its query, header and
 * cookie fields. Parameter schemas are inlined.
 *
 * @param route the catalogue's route
 * @param registry where the schemas are converted
 */
export function parametersOf(route: RouteInfo, registry: SchemaRegistry): JsonSchema[] {
  const spec = route.spec ?? {};
  const out: JsonSchema[] = [];
  const pathEntries = spec.path ? (objectEntries(spec.path) ?? {}) : {};
  for (const slot of parseTemplate(route.path).slots) {
    const field = pathEntries[slot];
    out.push({
      name: slot,
      in: 'path',
      required: true,
      schema: field ? registry.inline(field) : { type: 'string' },
    });
  }
  const add = (source: unknown, location: 'query' | 'header' | 'cookie'): void => {
    if (!source) return;
    const entries = objectEntries(source as SchemaNode) ?? {};
    for (const [key, field] of Object.entries(entries)) {
      const name = location === 'header' ? toHeaderName(key) : key;
      if (location === 'header' && IGNORED_HEADERS.has(name)) continue;
      out.push({ name, in: location, required: !isOptional(field), schema: registry.inline(field) });
    }
  };
  add(spec.params, 'query');
  add(spec.headers, 'header');
  add(spec.cookies, 'cookie');
  return out;
}

/**
 * An operation's `requestBody` (JSON model, multipart form or raw bytes), or `undefined` when it
 * reads no body.
 *
 * @param route the catalogue's route
 * @param registry where the schemas are converted
 * @param where `Owner.operation`, for wiring errors
 */
export function requestBodyOf(
  route: RouteInfo,
  registry: SchemaRegistry,
  where: string,
): JsonSchema | undefined {
  const spec = route.spec ?? {};
  if (spec.json) {
    const schema = spec.json as unknown as SchemaNode;
    return {
      required: !isOptional(schema),
      content: { 'application/json': { schema: registry.model(schema, where) } },
    };
  }
  if (spec.form) {
    // Inlined: part markers document as their value schema (files as binary strings). Parts core
    // decodes as JSON (nested models, bare or FormPart) say so in `encoding`.
    const media: JsonSchema = { schema: registry.inline(spec.form) };
    const encoding: Record<string, JsonSchema> = {};
    for (const [key, field] of Object.entries(objectEntries(spec.form) ?? {}))
      if (formFieldKind(field) === 'json') encoding[key] = { contentType: 'application/json' };
    if (Object.keys(encoding).length > 0) media.encoding = encoding;
    return { required: true, content: { 'multipart/form-data': media } };
  }
  if (spec.content) {
    return { required: true, content: { 'application/octet-stream': { schema: { ...BINARY } } } };
  }
  return undefined;
}
