import { SchemaRegistry } from './schemas';
import type { JsonSchema, SchemaNode } from './json-schema';

const COMPONENTS = '#/components/schemas/';
const DEFS = '#/$defs/';

/**
 * One schema as a self-contained JSON Schema (2020-12), converted exactly as the document
 * converts it (named Structs, dates, form parts, tagged unions): named Structs are `$defs`
 * entries referenced as `#/$defs/<name>`; a root that is a named Struct is inlined at the root
 * (its entry stays in `$defs` for references back to it). OpenAPI-only keywords
 * (`discriminator`) are left out. For other extensions that describe the app's inputs and
 * outputs (`@api/mcp`'s tool schemas), so they follow whatever the document supports.
 *
 * @param schema - A valibot schema from the route catalogue (a route's `spec.json`, `spec.path`, …).
 * @param where - Who asks, for a `WiringError` the conversion raises (two models of one name).
 * @returns A fresh object the caller may change.
 * @example
 * const input = jsonSchemaOf(route.spec.json, 'mcp WidgetResource.create');
 */
export function jsonSchemaOf(schema: unknown, where = 'jsonSchemaOf'): JsonSchema {
  const registry = new SchemaRegistry();
  const root = registry.model(schema as SchemaNode, where);
  const components = registry.finish();
  const defs: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(components)) defs[name] = toDefs(def) as JsonSchema;
  let out = toDefs(root) as JsonSchema;
  const ref = out.$ref;
  if (typeof ref === 'string' && ref.startsWith(DEFS) && Object.keys(out).length === 1) {
    const name = ref.slice(DEFS.length).replaceAll('~1', '/').replaceAll('~0', '~');
    out = { ...(defs[name] as JsonSchema) };
    // Only a model that refers back to itself needs its `$defs` entry besides the root.
    if (!refersTo(defs, ref)) delete defs[name];
  }
  if (Object.keys(defs).length > 0) out.$defs = defs;
  return out;
}

/** A deep copy with component refs made `$defs` refs and `discriminator` left out. */
function toDefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDefs);
  if (!value || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value as JsonSchema)) {
    if (key === 'discriminator') continue;
    if (key === '$ref' && typeof item === 'string' && item.startsWith(COMPONENTS))
      out.$ref = DEFS + item.slice(COMPONENTS.length);
    // `const`, `default`, `enum` and `examples` hold data, not schemas.
    else if (key === 'const' || key === 'default' || key === 'enum' || key === 'examples') out[key] = item;
    else out[key] = toDefs(item);
  }
  return out;
}

/** True when some schema under `value` has `$ref: ref`. */
function refersTo(value: unknown, ref: string): boolean {
  if (Array.isArray(value)) return value.some((v) => refersTo(v, ref));
  if (!value || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value as JsonSchema)) {
    if (key === '$ref' && item === ref) return true;
    if (key !== 'const' && key !== 'default' && key !== 'enum' && key !== 'examples' && refersTo(item, ref))
      return true;
  }
  return false;
}
