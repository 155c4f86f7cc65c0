import * as v from 'valibot';
import type { AnySchema, SchemaInput, SchemaOutput } from '../contract/standard-schema';
import { classSerializer } from '../schema/serializer';
import { namedInfo } from '../schema/standard';
import { structInfo } from '../schema/struct';
import { describeValue, wiringError } from '../contract/wiring-error';
import { bodyFields } from './body-fields';
import { checkErrorOptions, HTTP_ERROR_KEYS } from './base-http-error';
import { HTTPError, type HTTPErrorOptions } from './http-error';
import { renderTemplate, templateFields } from './templates';

const DATACLASS_KEYS: readonly string[] = [...HTTP_ERROR_KEYS, 'detailTemplate'];

/** Class options of a parameterized Problem error. */
export interface DataclassHTTPErrorOptions extends HTTPErrorOptions {
  /** A template over the params fields, e.g. `'Widget {widgetId} not found'`. */
  readonly detailTemplate: string;
}

/** A parameterized Problem error class produced by `DataclassHTTPError.define`. */
export interface DataclassHTTPErrorClass<
  TParams extends AnySchema,
  TStatus extends number = number,
  TType extends string = string,
> {
  new (params: SchemaInput<TParams>): DataclassHTTPErrorBase<SchemaOutput<TParams>>;
  readonly paramsSchema: TParams;
  readonly detailTemplate: string;
  /** The `type` code, as a literal type. */
  readonly type: TType;
  readonly title: string;
  /** The status, as a literal type (an exception handler's `returns` ties it to the body). */
  readonly status: TStatus;
  readonly docs: string | undefined;
}

/**
 * A Problem error with typed `params` and a `detail` rendered from `detailTemplate`.
 *
 * @example
 * const WidgetNotFoundParams = Struct('WidgetNotFoundParams', { widgetId: v.string() });
 * class WidgetNotFoundError extends DataclassHTTPError.define(WidgetNotFoundParams, {
 *   type: 'widget-not-found', title: 'Widget not found', status: 404, detailTemplate: 'Widget {widgetId} not found',
 * }) {}
 * throw new WidgetNotFoundError({ widgetId: '42' });
 */
abstract class DataclassHTTPErrorBase<TParams = unknown> extends HTTPError {
  static readonly detailTemplate: string = '';
  /** The field a template of one placeholder names (`'{reason}'` → `'reason'`), decided at `define`. */
  protected static readonly detailField: string | undefined = undefined;
  /** A Struct (compiled serializer) or a Standard object schema (validated, its output written). */
  static readonly paramsSchema: AnySchema = v.object({});
  // Plain properties assigned in the constructor (no field initializers on the error path).
  /** The typed params of this occurrence. */
  declare readonly params: TParams;
  declare private renderedDetail: string | undefined;

  constructor(params: TParams) {
    super();
    if (typeof params !== 'object' || params === null)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        `new ${new.target.name}(params)`,
        `expected the params object, got ${describeValue(params)}`,
        `pass the fields of ${paramsName(new.target.paramsSchema) ?? 'its params Struct'}, ` +
          `e.g. new ${new.target.name}({ … })`,
      );
    (this as { params: TParams }).params = params;
    this.renderedDetail = undefined;
  }

  override get detail(): string {
    if (this.renderedDetail === undefined) {
      const cls = this.constructor as typeof DataclassHTTPErrorBase;
      const params = this.params as Record<string, unknown>;
      // A template that is one placeholder (the 400's and 422's '{reason}') of a string is that string.
      const sole = cls.detailField === undefined ? undefined : params[cls.detailField];
      this.renderedDetail = typeof sole === 'string' ? sole : renderTemplate(cls.detailTemplate, params);
    }
    return this.renderedDetail;
  }

  protected override paramsJson(): string {
    const cls = this.constructor as typeof DataclassHTTPErrorBase;
    return classSerializer(cls, cls.paramsSchema)(this.params);
  }

  /**
   * Declares a parameterized Problem error class; the template is checked against the params (a
   * Struct, or a Standard object schema whose library offers JSON Schema: zod 4, ArkType 2).
   */
  static defineParameterized<
    TParams extends AnySchema,
    const TType extends string,
    const TStatus extends number,
  >(
    paramsSchema: TParams,
    options: DataclassHTTPErrorOptions & { readonly type: TType; readonly status: TStatus },
  ): DataclassHTTPErrorClass<TParams, TStatus, TType> {
    checkErrorOptions('DataclassHTTPError.define', options, DATACLASS_KEYS);
    const where = `DataclassHTTPError.define({ type: '${options.type}' })`;
    if (typeof options.detailTemplate !== 'string')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `"detailTemplate" must be a string, got ${describeValue(options.detailTemplate)}`,
        "e.g. detailTemplate: 'Widget {widgetId} not found'",
      );
    const entries = bodyFields(paramsSchema);
    if (!entries)
      throw wiringError(
        'API_WIRING_NOT_A_SCHEMA',
        where,
        `params schema is not an object schema (got ${describeValue(paramsSchema)})`,
        'pass a Struct (or a zod/ArkType object schema whose library offers JSON Schema) as the first argument',
      );
    const fields = templateFields(where, options.detailTemplate);
    for (const field of fields) {
      if (!entries.has(field)) {
        throw wiringError(
          'API_WIRING_ERROR_TEMPLATE',
          where,
          `detailTemplate names "{${field}}", which is not a params field`,
          `add "${field}" to the params Struct or change the template`,
        );
      }
    }
    abstract class Defined extends DataclassHTTPErrorBase<SchemaOutput<TParams>> {
      static override readonly type = options.type;
      static override readonly title = options.title;
      static override readonly status = options.status;
      static override readonly docs = options.docs;
      static override readonly detailTemplate = options.detailTemplate;
      protected static override readonly detailField =
        fields.length === 1 && options.detailTemplate === `{${fields[0]}}` ? fields[0] : undefined;
      static override readonly paramsSchema: AnySchema = paramsSchema;
    }
    return Defined as unknown as DataclassHTTPErrorClass<TParams, TStatus, TType>;
  }
}

function paramsName(schema: AnySchema): string | undefined {
  return structInfo(schema)?.name ?? namedInfo(schema)?.name;
}

/** A parameterized Problem error (`DataclassHTTPError[P]`): typed `params`, rendered `detail`. */
export type DataclassHTTPError<TParams = unknown> = DataclassHTTPErrorBase<TParams>;
/**
 * Parameterized Problem errors: `DataclassHTTPError.define(ParamsStruct, { type, title, status, detailTemplate })`.
 */
export const DataclassHTTPError: typeof DataclassHTTPErrorBase & {
  define: typeof DataclassHTTPErrorBase.defineParameterized;
} = Object.assign(DataclassHTTPErrorBase, {
  define: DataclassHTTPErrorBase.defineParameterized.bind(DataclassHTTPErrorBase),
});
