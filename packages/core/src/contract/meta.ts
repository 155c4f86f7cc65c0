import type * as v from 'valibot';
import type { kHTTPError } from './symbols';
import { describeValue, wiringError } from './wiring-error';

/**
 * A tag with a description; renders its OpenAPI document entry.
 *
 * @example
 * new Tag('widgets', 'Create, read, and manage widgets.')
 */
export class Tag {
  constructor(
    readonly name: string,
    readonly description?: string,
  ) {
    if (typeof name !== 'string' || name === '')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        'new Tag(name)',
        `name must be a non-empty string, got ${describeValue(name)}`,
        "new Tag('widgets', 'Create, read, and manage widgets.')",
      );
    if (description !== undefined && typeof description !== 'string')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `new Tag('${name}', description)`,
        `description must be a string, got ${describeValue(description)}`,
        `new Tag('${name}', 'What these operations do.'), or leave it out`,
      );
  }
  /** The document's `tags[]` entry. */
  toOpenapi(): { name: string; description?: string } {
    return this.description === undefined
      ? { name: this.name }
      : { name: this.name, description: this.description };
  }
}

/** One extra or overriding documented response. */
export interface ResponseDoc {
  /** Body schema; with no model, `contentType` documents a schemaless body; with neither, no body. */
  readonly model?: v.GenericSchema;
  readonly contentType?: string;
  readonly description?: string;
}

/** An error class an operation can raise (status, body schema and description derive from it). */
export type ErrorClass = abstract new (...args: never[]) => HTTPErrorInstance;

/**
 * What an error class's instances are: a `BaseHTTPError` (the brand, declared only there, keeps the
 * type nominal; the full class is in `errors/`, above this layer).
 */
export interface HTTPErrorInstance extends Error {
  readonly [kHTTPError]: true;
  readonly status: number;
}

/** Class-level metadata (`EndpointMeta` / `ResourceMeta`). */
export interface RouteMeta {
  readonly tags?: readonly (string | Tag)[];
  readonly summary?: string;
  readonly description?: string;
  readonly responses?: Readonly<Record<number, ResponseDoc>>;
  readonly exceptions?: readonly ErrorClass[];
}

/**
 * Per-operation metadata. `tags`: a mutable array extends the class tags, a non-empty
 * `readonly` tuple written with `replaceTags: true` replaces them.
 */
export interface OperationMeta extends RouteMeta {
  readonly operationId?: string;
  /** Replace the class-level tags instead of extending them (the spec's non-empty tuple). */
  readonly replaceTags?: boolean;
  readonly deprecated?: boolean;
}

export type EndpointMeta = RouteMeta;
export type ResourceMeta = RouteMeta;
