/** A JSON Schema (2020-12, the OpenAPI 3.1 dialect) as it appears in the document. */
export type JsonSchema = { [key: string]: unknown };

/** The valibot schema shape read at wiring: plain objects with a `type` tag. */
export interface SchemaNode {
  readonly kind?: string;
  readonly type: string;
  readonly wrapped?: SchemaNode;
  readonly entries?: Readonly<Record<string, SchemaNode>>;
  readonly item?: SchemaNode;
  readonly items?: readonly SchemaNode[];
  readonly rest?: SchemaNode;
  readonly key?: SchemaNode | string;
  readonly value?: SchemaNode;
  readonly options?: readonly unknown[];
  readonly literal?: unknown;
  readonly default?: unknown;
  readonly pipe?: readonly { readonly kind: string; readonly type: string }[];
  readonly getter?: (input: unknown) => SchemaNode;
}

const OPTIONAL = new Set(['optional', 'exact_optional', 'nullish', 'undefinedable']);
const WRAPPERS = new Set([...OPTIONAL, 'nullable', 'non_optional', 'non_nullable', 'non_nullish']);

/** Strips optional/nullable wrappers (and a leading pipe schema): the schema of a present value. */
export function unwrap(schema: SchemaNode): SchemaNode {
  let s = schema;
  for (;;) {
    if (WRAPPERS.has(s.type) && s.wrapped) s = s.wrapped;
    else return s;
  }
}

/** True when an object field may be absent. */
export function isOptional(schema: SchemaNode): boolean {
  let s = schema;
  while (WRAPPERS.has(s.type) && s.wrapped) {
    if (OPTIONAL.has(s.type)) return true;
    s = s.wrapped;
  }
  return false;
}

/** The entries of an object schema (through wrappers), if it is one. */
export function objectEntries(schema: SchemaNode): Readonly<Record<string, SchemaNode>> | undefined {
  const s = unwrap(schema);
  return s.entries && (s.type === 'object' || s.type.endsWith('_object') || s.type === 'object_with_rest')
    ? s.entries
    : undefined;
}

/** Escapes one JSON Pointer token. */
export function pointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The schema of raw bytes (copy it before adding to a document: `{ ...BINARY }`). */
export const BINARY: Readonly<JsonSchema> = {
  type: 'string',
  format: 'binary',
  contentMediaType: 'application/octet-stream',
};
