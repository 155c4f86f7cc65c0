// A tool's input schema (one object of path, query and body fields) and output schema (the
// declared success answer), converted by @api/openapi's `jsonSchemaOf` as the document converts them.
import {
  isOptional,
  isStandardSchema,
  parseTemplate,
  wiringError,
  type RouteInfo,
} from '@api/core/extension';
import { jsonSchemaOf, type JsonSchema } from '@api/openapi';

/** How a call's arguments become the operation's request. */
export interface InputPlan {
  /** The path template's slots, in order. */
  readonly slots: readonly string[];
  /** Query fields. */
  readonly query: ReadonlySet<string>;
  /**
   * The JSON body: none, the arguments that are neither slots nor query fields (an object body),
   * or the one argument `body` (any other body).
   */
  readonly body: 'none' | 'fields' | 'field';
  /** The body may be left out (an optional `json`): sent only when some body argument is given. */
  readonly bodyOptional: boolean;
  /** The tool's `inputSchema`. */
  readonly schema: JsonSchema;
}

/** `object`: the answer is the structured content; `wrapped`: it is `{ result: answer }`; `none`: no schema. */
export type OutputMode = 'object' | 'wrapped' | 'none';

/** The merged input of one operation; a name used twice is a `WiringError` naming both fields. */
export function inputOf(route: RouteInfo, where: string): InputPlan {
  const spec = route.spec ?? {};
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const defs: Record<string, JsonSchema> = {};
  const from = new Map<string, string>();
  const add = (name: string, schema: unknown, origin: string, isRequired: boolean): void => {
    const prior = from.get(name);
    if (prior !== undefined)
      throw wiringError(
        'API_WIRING_MCP_FIELD_COLLISION',
        where,
        `${prior} and ${origin} are both named "${name}", and a tool takes one object of arguments`,
        `rename one of them, or leave the operation out (exclude: ['${route.owner}.${route.operation}'])`,
      );
    from.set(name, origin);
    properties[name] = schema;
    if (isRequired) required.push(name);
  };
  const slots = parseTemplate(route.path).slots;
  const path = spec.path ? objectOf(jsonSchemaOf(spec.path, where), defs, where) : undefined;
  for (const slot of slots)
    add(slot, path?.properties[slot] ?? { type: 'string' }, `path slot "${slot}"`, true);
  const query = new Set<string>();
  if (spec.params) {
    const params = objectOf(jsonSchemaOf(spec.params, where), defs, where);
    for (const [name, schema] of Object.entries(params?.properties ?? {})) {
      add(name, schema, `query field "${name}"`, params!.required.includes(name));
      query.add(name);
    }
  }
  let body: InputPlan['body'] = 'none';
  // A Standard Schema body is required (core reads it whenever the route declares it).
  const bodyOptional =
    spec.json !== undefined &&
    !isStandardSchema(spec.json) &&
    isOptional(spec.json as Parameters<typeof isOptional>[0]);
  if (spec.json) {
    const converted = jsonSchemaOf(spec.json, where);
    const fields = converted.type === 'object' ? objectOf(converted, defs, where) : undefined;
    if (fields && Object.keys(fields.properties).length > 0) {
      body = 'fields';
      for (const [name, schema] of Object.entries(fields.properties))
        add(name, schema, `body field "${name}"`, !bodyOptional && fields.required.includes(name));
    } else {
      body = 'field';
      add('body', withoutDefs(converted, defs, where), 'the body', !bodyOptional);
    }
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return { slots, query, body, bodyOptional, schema };
}

/** The output schema: the one declared JSON success answer, an object as is, anything else wrapped. */
export function outputOf(route: RouteInfo, where: string): { mode: OutputMode; schema?: JsonSchema } {
  const successes = route.responses.filter((r) => {
    const status = r.status ?? route.defaultStatus;
    return status >= 200 && status < 300;
  });
  const schemas = [...new Set(successes.map((r) => r.schema))];
  if (schemas.length !== 1 || schemas[0] === undefined || successes.some((r) => r.kind !== 'json'))
    return { mode: 'none' };
  const converted = jsonSchemaOf(schemas[0], where);
  if (converted.type === 'object' && converted.anyOf === undefined && converted.oneOf === undefined)
    return { mode: 'object', schema: converted };
  const defs: Record<string, JsonSchema> = {};
  const result = withoutDefs(converted, defs, where);
  const schema: JsonSchema = { type: 'object', properties: { result }, required: ['result'] };
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return { mode: 'wrapped', schema };
}

/** An object schema's properties and required names; its `$defs` join `defs`. */
function objectOf(
  schema: JsonSchema,
  defs: Record<string, JsonSchema>,
  where: string,
): { properties: Record<string, unknown>; required: string[] } | undefined {
  const own = withoutDefs(schema, defs, where);
  if (own.type !== 'object' || typeof own.properties !== 'object' || own.properties === null)
    return undefined;
  return {
    properties: own.properties as Record<string, unknown>,
    required: Array.isArray(own.required) ? (own.required as string[]) : [],
  };
}

/** `schema` without its `$defs`, which join `defs` (one name, two different models: a `WiringError`). */
function withoutDefs(schema: JsonSchema, defs: Record<string, JsonSchema>, where: string): JsonSchema {
  const { $defs, ...own } = schema;
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    const prior = defs[name];
    if (prior !== undefined && JSON.stringify(prior) !== JSON.stringify(def))
      throw wiringError(
        'API_WIRING_DUPLICATE',
        where,
        `two different models are named "${name}"`,
        `give one of them another name: Struct('${name}', …, { name: 'Other' })`,
      );
    defs[name] = def;
  }
  return own;
}
