import { wiringError } from '@api/core/extension';
import {
  DataclassHTTPError,
  HTTPError,
  StructHTTPError,
  type ErrorBodyAdapter,
  type ErrorClass,
} from '@api/core';
import type { JsonSchema, SchemaNode } from './json-schema';
import { componentRef, type SchemaRegistry } from './schemas';

export const PROBLEM_JSON = 'application/problem+json';
export const JSON_TYPE = 'application/json';

/** How one error class documents: status, media type, body schema and description. */
export interface ErrorDoc {
  readonly status: number;
  readonly contentType: string;
  readonly schema: JsonSchema;
  readonly description: string;
}

type ProblemClass = typeof HTTPError & { readonly name: string };
type DataclassClass = ProblemClass & { readonly paramsSchema: SchemaNode; readonly detailTemplate: string };
type StructErrorClass = typeof StructHTTPError & {
  readonly name: string;
  readonly bodySchema: SchemaNode;
};

function isSubclass(cls: unknown, base: abstract new (...args: never[]) => unknown): boolean {
  return typeof cls === 'function' && (cls === base || cls.prototype instanceof base);
}

/**
 * Documents error classes: Problem errors as `<Name>Problem` components under
 * `application/problem+json` (or the app's adapter body under `application/json`),
 * `StructHTTPError`s as their own body under `application/json`.
 */
export class ErrorDocs {
  readonly #registry: SchemaRegistry;
  readonly #adapter: ErrorBodyAdapter | undefined;
  /** Components of error classes by name: `<Name>Problem`, and each `StructHTTPError` class by its name. */
  readonly #problems = new Map<string, { cls: ErrorClass; schema: JsonSchema; kind: string }>();
  readonly #docs = new Map<ErrorClass, ErrorDoc>();
  readonly #ids = new Map<ErrorDoc, number>();
  #adapterRef: JsonSchema | undefined;
  readonly #adapterByStatus = new Map<number, JsonSchema>();

  constructor(registry: SchemaRegistry, adapter: ErrorBodyAdapter | undefined) {
    this.#registry = registry;
    this.#adapter = adapter;
  }

  /** The error components (`<Name>Problem`, `StructHTTPError` classes), to merge into `components.schemas`. */
  get components(): ReadonlyMap<string, JsonSchema> {
    return new Map([...this.#problems].map(([name, p]) => [name, p.schema]));
  }

  /** A stable number per documented error (docs are cached per class). */
  idOf(doc: ErrorDoc): number {
    let id = this.#ids.get(doc);
    if (id === undefined) {
      id = this.#ids.size;
      this.#ids.set(doc, id);
    }
    return id;
  }

  /** How `cls` documents; `where` names the operation in wiring errors. */
  doc(cls: ErrorClass, where: string): ErrorDoc {
    const cached = this.#docs.get(cls);
    if (cached) return cached;
    let doc: ErrorDoc;
    if (isSubclass(cls, StructHTTPError)) doc = this.#structDoc(cls as unknown as StructErrorClass, where);
    else if (isSubclass(cls, HTTPError)) doc = this.#problemDoc(cls as unknown as ProblemClass, where);
    else {
      const name = typeof cls === 'function' ? cls.name || 'an anonymous class' : String(cls);
      throw wiringError(
        'API_WIRING_NOT_AN_ERROR_CLASS',
        where,
        `exceptions lists ${name}, which is not an HTTP error class`,
        'list classes declared with HTTPError.define, DataclassHTTPError.define or StructHTTPError.define',
      );
    }
    this.#docs.set(cls, doc);
    return doc;
  }

  #problemDoc(cls: ProblemClass, where: string): ErrorDoc {
    const status = cls.status;
    const description = cls.title;
    if (this.#adapter) {
      return { status, contentType: JSON_TYPE, schema: this.#adapterSchema(status), description };
    }
    const name = `${cls.name.replace(/Error$/, '')}Problem`;
    if (!cls.name || name === 'Problem') {
      throw wiringError(
        'API_WIRING_OPENAPI_NAME',
        where,
        `an error class in exceptions has no name (type "${cls.type}")`,
        'declare it as a named class: class WidgetNotFoundError extends HTTPError.define({ … }) {}',
      );
    }
    const prior = this.#problems.get(name);
    if (prior && prior.cls !== cls) {
      throw wiringError(
        'API_WIRING_OPENAPI_CONFLICT',
        where,
        `two different error classes document as "${name}" (${prior.kind === 'Problem' ? `types "${(prior.cls as unknown as ProblemClass).type}" and "${cls.type}"` : `${prior.kind} and a Problem error`})`,
        'rename one of the classes',
      );
    }
    if (!prior) this.#problems.set(name, { cls, schema: this.#problemSchema(cls), kind: 'Problem' });
    return { status, contentType: PROBLEM_JSON, schema: componentRef(name), description };
  }

  #problemSchema(cls: ProblemClass): JsonSchema {
    const properties: Record<string, JsonSchema> = {
      type: { type: 'string', const: cls.type, description: 'A stable machine-readable code.' },
      title: { type: 'string', examples: [cls.title] },
      status: { type: 'integer', const: cls.status },
    };
    const required = ['type', 'title', 'status'];
    if (cls.docs !== undefined) {
      properties.docs = { type: 'string', const: cls.docs };
      required.push('docs');
    }
    if (isSubclass(cls, DataclassHTTPError)) {
      const d = cls as DataclassClass;
      properties.detail = { type: 'string' };
      properties.params = this.#registry.model(d.paramsSchema, `${cls.name} params`, false, 'output');
      required.push('detail', 'params');
    }
    return {
      type: 'object',
      description: `${cls.title} (RFC 9457 Problem Details, type "${cls.type}").`,
      properties,
      required,
    };
  }

  #adapterSchema(status: number): JsonSchema {
    const adapter = this.#adapter!;
    this.#adapterRef ??= this.#registry.model(
      adapter.schema as SchemaNode,
      'includeErrorAdapter',
      false,
      'output',
    );
    if (adapter.statusField === undefined) return this.#adapterRef;
    const cached = this.#adapterByStatus.get(status);
    if (cached) return cached;
    const schema: JsonSchema = {
      allOf: [
        this.#adapterRef,
        {
          type: 'object',
          properties: { [adapter.statusField]: { type: 'integer', const: status } },
          required: [adapter.statusField],
        },
      ],
    };
    this.#adapterByStatus.set(status, schema);
    return schema;
  }

  /**
   * A `StructHTTPError` class is its own component, named after the class: its body Struct
   * (`$ref`) with the consts and the status field pinned as `const` (what the wire always sends
   * for this class), so clients can tell it apart from other bodies on the same status.
   */
  #structDoc(cls: StructErrorClass, where: string): ErrorDoc {
    const name = cls.name;
    if (!name) {
      throw wiringError(
        'API_WIRING_OPENAPI_NAME',
        where,
        `a StructHTTPError class in exceptions has no name (status ${cls.status})`,
        'declare it as a named class: class LegacyGoneError extends StructHTTPError.define(Body, { … }) {}',
      );
    }
    const prior = this.#problems.get(name);
    if (prior && prior.cls !== cls) {
      throw wiringError(
        'API_WIRING_OPENAPI_CONFLICT',
        where,
        `two different error classes document as "${name}"`,
        'rename one of the classes',
      );
    }
    const description = cls.description ?? `${name} (${cls.status})`;
    if (!prior) {
      const body = this.#registry.model(cls.bodySchema, `${name} body`, false, 'output');
      const pinned: Record<string, JsonSchema> = {};
      for (const [field, value] of Object.entries(cls.consts)) pinned[field] = { const: value };
      if (cls.statusField !== undefined) pinned[cls.statusField] = { type: 'integer', const: cls.status };
      const schema: JsonSchema =
        Object.keys(pinned).length === 0
          ? { allOf: [body], description }
          : {
              allOf: [body, { type: 'object', properties: pinned, required: Object.keys(pinned) }],
              description,
            };
      this.#problems.set(name, { cls, schema, kind: 'StructHTTPError' });
    }
    return { status: cls.status, contentType: JSON_TYPE, schema: componentRef(name), description };
  }
}
