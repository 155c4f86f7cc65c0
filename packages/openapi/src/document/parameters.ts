import {
  formFieldKind,
  formPartInfo,
  parseTemplate,
  type RouteInfo,
  toHeaderName,
} from '@api/core/extension';
import { examplesOf, withExamples } from './examples';
import { isStandardSchema } from './standard';
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
  const where = `${route.owner}.${route.operation}`;
  if (isStandardSchema(spec.path)) {
    const fields = new Map(registry.standardFields(spec.path, where).map((f) => [f.key, f.schema]));
    for (const slot of parseTemplate(route.path).slots)
      out.push({ name: slot, in: 'path', required: true, schema: fields.get(slot) ?? { type: 'string' } });
  } else {
    const pathEntries = spec.path ? (objectEntries(spec.path as SchemaNode) ?? {}) : {};
    for (const slot of parseTemplate(route.path).slots) {
      const field = pathEntries[slot];
      out.push({
        name: slot,
        in: 'path',
        required: true,
        schema: field ? registry.inline(field) : { type: 'string' },
      });
    }
  }
  const add = (source: unknown, location: 'query' | 'header' | 'cookie'): void => {
    if (!source) return;
    if (isStandardSchema(source)) {
      for (const field of registry.standardFields(source, where)) {
        const name = location === 'header' ? toHeaderName(field.key) : field.key;
        if (location === 'header' && IGNORED_HEADERS.has(name)) continue;
        out.push({ name, in: location, required: field.required, schema: field.schema });
      }
      return;
    }
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
  if (isStandardSchema(spec.json)) {
    const media = { schema: registry.model(spec.json as unknown as SchemaNode, where, false, 'input') };
    return { required: true, content: { 'application/json': media } };
  }
  if (isStandardSchema(spec.form)) {
    // Plain and JSON-text fields only (no parts): multipart and url-encoded alike.
    const schema = registry.model(spec.form as unknown as SchemaNode, where, false, 'input');
    const fields = registry.standardFields(spec.form, where);
    const encoding: JsonSchema = {};
    for (const f of fields)
      if (f.schema.type === 'object' || (f.schema.items as JsonSchema | undefined)?.type === 'object')
        encoding[f.key] = { contentType: 'application/json' };
    const media: JsonSchema = { schema };
    if (Object.keys(encoding).length > 0) media.encoding = encoding;
    return {
      required: true,
      content: { 'multipart/form-data': media, 'application/x-www-form-urlencoded': { schema } },
    };
  }
  if (spec.json) {
    const schema = spec.json as unknown as SchemaNode;
    const media = { schema: registry.model(schema, where) };
    return {
      required: !isOptional(schema),
      content: {
        'application/json': withExamples(media, examplesOf(schema, registry.nameOf(schema), where)),
      },
    };
  }
  if (spec.form) {
    // A form model is a component like a JSON one (part markers document as their value schema,
    // files as binary strings); how each part is sent is its `encoding`.
    const form = spec.form as unknown as SchemaNode;
    const media: JsonSchema = { schema: registry.model(form, where) };
    const encoding = formEncoding(form, registry);
    if (encoding) media.encoding = encoding;
    const content: JsonSchema = { 'multipart/form-data': media };
    // Core binds url-encoded bodies too (an HTML form's default), unless a part is a file or bytes.
    if (sendableUrlEncoded(form)) content['application/x-www-form-urlencoded'] = { schema: media.schema };
    return { required: true, content };
  }
  if (spec.content) {
    return { required: true, content: { 'application/octet-stream': { schema: { ...BINARY } } } };
  }
  return undefined;
}

/** True when every field of a form can be sent url-encoded (no file or bytes part). */
function sendableUrlEncoded(form: SchemaNode): boolean {
  return Object.values(objectEntries(form) ?? {}).every((schema) => {
    const kind = formFieldKind(schema);
    return kind !== 'file' && kind !== 'bytes';
  });
}

/**
 * The `encoding` of a multipart form: `contentType: application/json` for a part whose body is
 * JSON (a `FormPart` of a model, or a bare nested model), and the part headers a `FormPart`
 * declares (`Content-Type` aside: OpenAPI describes it by `contentType`). Undefined when no
 * part needs one.
 */
function formEncoding(form: SchemaNode, registry: SchemaRegistry): JsonSchema | undefined {
  const encoding: JsonSchema = {};
  for (const [field, schema] of Object.entries(objectEntries(form) ?? {})) {
    const part = formPartInfo(schema);
    const entry: JsonSchema = {};
    // The part body is JSON exactly when core decodes it as JSON.
    if (formFieldKind(schema) === 'json') entry.contentType = 'application/json';
    const headers: JsonSchema = {};
    for (const [key, header] of Object.entries(
      part?.headers ? (objectEntries(part.headers as unknown as SchemaNode) ?? {}) : {},
    )) {
      const name = toHeaderName(key);
      if (name === 'content-type') continue;
      headers[name] = { required: !isOptional(header), schema: registry.inline(header) };
    }
    if (Object.keys(headers).length > 0) entry.headers = headers;
    if (Object.keys(entry).length > 0) encoding[field] = entry;
  }
  return Object.keys(encoding).length > 0 ? encoding : undefined;
}
