import type { AnySchema } from '../contract/standard-schema';
import { isStandardSchema, noShape, standardFields } from '../schema/standard';
import type * as v from 'valibot';
import { isExtensionKind } from '../responses/extension-kind';
import { describeValue, isSchema, wiringError } from '../contract/wiring-error';
import type { Limits } from '../contract/limits';
import { mergeLimits, MOUNT_LIMIT_KEYS, type MountLimits } from '../contract/limits';
import { pathBinder } from '../binding/path-binder';
import { mountOption, type MountOptionValue } from './mount-option';
import type { Middleware } from '../middleware/middleware';
import { checkInterceptsReach, checkMiddleware } from '../middleware/check';
import { plainJson, responseFacts, type ResponseKindFacts } from '../responses/response';
import {
  ENDPOINT_OPERATIONS,
  isOperation,
  RESOURCE_OPERATIONS,
  routeClassInfo,
  type OperationSpec,
} from '../route-class/route-class';
import { routeClassName } from '../contract/route-name';
import { parseTemplate } from '../routing/router';
import { objectEntries } from '../schema/introspect';
import { checkPrefix } from '../routing/prefix-table';
import { newRouteInfo, type RouteRecord } from './records';
import { closestName } from '../checks/closest-name';

/** Mount options core compiles itself; every other option is a package's compiled value. */
export const CORE_MOUNT_OPTIONS: ReadonlySet<string> = new Set(['middleware', 'limits', 'prefix']);

/** What `includeResource` / `includeEndpoint` hand to the mounter. */
export interface RouteClassMount {
  readonly appName: string;
  readonly appLimits: Limits;
  /** What the app was given: checked here to be a route instance. */
  readonly instance: unknown;
  readonly kind: 'resource' | 'endpoint';
  /** The mount options as given (`undefined` when none): checked here to be an object. */
  readonly options: unknown;
}

type MountOptions = Readonly<Record<string, unknown>> & {
  readonly middleware?: readonly Middleware[];
  readonly limits?: MountLimits;
};

/** True when a mount option value compiles itself (built by the package that provides it). */
export function isMountOptionValue(value: unknown): value is MountOptionValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<MountOptionValue>)[mountOption] === 'function'
  );
}

/**
 * The one check of a route's mount options, for a class mount and an extension route alike: every
 * option core does not compile itself is a compiled mount option value, and `middleware` is a list
 * of middleware objects (each checked here, once). Returns that list.
 *
 * @param where - The mount call or the extension route, for the message.
 * @param options - The mount options.
 * @param middlewareOwner - Who the middleware is mounted on, for the middleware's messages.
 */
export function checkMountOptions(
  where: string,
  options: Readonly<Record<string, unknown>>,
  middlewareOwner: string,
): readonly Middleware[] {
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || value === false || CORE_MOUNT_OPTIONS.has(key) || isMountOptionValue(value))
      continue;
    throw wiringError(
      'API_WIRING_MOUNT_OPTION',
      where,
      `mount option "${key}" is not a value core can compile`,
      `build it with the package that provides "${key}" (for example auth from @api/auth, cors from @api/cors)`,
    );
  }
  const given: unknown = options.middleware ?? [];
  if (!Array.isArray(given))
    throw wiringError(
      'API_WIRING_MOUNT_OPTION',
      where,
      `mount option "middleware" must be a list, got ${describeValue(given)}`,
      'middleware: [myMiddleware]',
    );
  const middleware = given as readonly Middleware[];
  middleware.forEach((mw) => checkMiddleware(`${middlewareOwner} mount middleware`, mw));
  return middleware;
}

/** The `prefix` mount option: '' without one; a literal path (no slots, no trailing `/`). */
function mountPrefix(where: string, prefix: unknown): string {
  if (prefix === undefined) return '';
  const checked = checkPrefix(`${where}: mount option "prefix"`, prefix);
  return checked === '/' ? '' : checked;
}

/**
 * Turns a mounted Resource/Endpoint instance into route records: one per declared operation,
 * every path rule checked (each mistake a `WiringError` naming the class, the operation and the fix).
 */
export function mountRouteClass(mount: RouteClassMount): RouteRecord[] {
  const { appName, instance, kind } = mount;
  const method = kind === 'resource' ? 'includeResource' : 'includeEndpoint';
  if (typeof instance !== 'object' || instance === null)
    throw wiringError(
      'API_WIRING_MOUNT_WRONG_CLASS',
      `${appName}.${method}`,
      `expected an instance of a ${kind === 'resource' ? 'Resource' : 'Endpoint'} ` +
        `class, got ${instance === null ? 'null' : typeof instance}`,
      'pass `new MyRoute()`',
    );
  const records: RouteRecord[] = [];
  const cls = instance.constructor as abstract new (...args: never[]) => object;
  const className = routeClassName(cls);
  const given = mount.options;
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given)))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `${appName}.${method}(${className})`,
      `mount options must be an object, got ${describeValue(given)}`,
      'pass { auth, cors, middleware, limits, … } or nothing',
    );
  const options = (given ?? {}) as MountOptions;
  const info = routeClassInfo(instance);
  if (!info || info.kind !== kind) {
    throw wiringError(
      'API_WIRING_MOUNT_WRONG_CLASS',
      `${appName}.${method}`,
      `${className} is not ${kind === 'resource' ? 'a Resource' : 'an Endpoint'}`,
      `declare it with \`class ${className} ` +
        `extends ${kind === 'resource' ? 'Resource' : 'Endpoint'}('/path') {}\` and ` +
        `use ${kind === 'resource' ? 'includeEndpoint for Endpoints' : 'includeResource for Resources'}`,
    );
  }
  const mountMiddleware = checkMountOptions(`${appName}.${method}(${className})`, options, className);
  const limits = mergeLimits(`${className} mount limits`, mount.appLimits, options.limits, MOUNT_LIMIT_KEYS);
  const { slots } = parseTemplate(info.path, `${appName}.${method}(${className})`);
  const prefix = mountPrefix(`${appName}.${method}(${className})`, options.prefix);
  const table = kind === 'resource' ? RESOURCE_OPERATIONS : ENDPOINT_OPERATIONS;
  checkOperationNames(className, instance, Object.keys(table));
  let count = 0;
  for (const [name, op] of Object.entries(table) as [
    string,
    { method: string; item: boolean; status: number },
  ][]) {
    const operation = (instance as Record<string, unknown>)[name];
    if (operation === undefined) continue;
    const where = `${className}.${name}`;
    if (!isOperation(operation))
      throw wiringError(
        'API_WIRING_NOT_AN_OPERATION',
        where,
        'is not an operation',
        `declare it as \`${name} = this.operation({ … }, handler)\``,
      );
    count++;
    const spec = operation.spec;
    const bodies = ['json', 'content', 'form'].filter(
      (k) => (spec as Record<string, unknown>)[k] !== undefined,
    );
    if (bodies.length > 1)
      throw wiringError(
        'API_WIRING_REQUEST_BODY',
        where,
        `declares ${bodies.join(' and ')}; a request has one body`,
        'declare only one of json, content, form',
      );
    checkSources(where, op.method, spec);
    let path = info.path;
    if (spec.path === undefined && slots.length > 0 && !op.item)
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `mount path "${info.path}" ` +
          `has ${slots.length === 1 ? 'slot' : 'slots'} ${slots.map((s) => `"{${s}}"`).join(', ')} but the ` +
          'operation declares no path model, so no request could bind it',
        `declare path: Struct('…', { ${slots.map((s) => `${s}: v.string()`).join(', ')} })`,
      );
    const pathFields = spec.path ? fieldNames(spec.path) : [];
    for (const slot of slots) {
      if (spec.path && !pathFields.includes(slot))
        throw wiringError(
          'API_WIRING_PATH_BINDING',
          where,
          `mount path "${info.path}" has slot "{${slot}}" but the path schema has no field "${slot}"`,
          `add "${slot}" to the path Struct`,
        );
    }
    const extra = pathFields.filter((f) => !slots.includes(f));
    if (op.item) {
      if (extra.length === 0)
        throw wiringError(
          'API_WIRING_PATH_BINDING',
          where,
          'an item operation needs a path field beyond the mount\'s slots (e.g. "{widget_id}")',
          `declare path: Struct('…', { ${slots.map((s) => `${s}: …, `).join('')}item_id: v.string() })`,
        );
      for (const field of extra) {
        if (!/^[a-z_][a-z0-9_]*$/.test(field))
          throw wiringError(
            'API_WIRING_SLOT_NAME',
            where,
            `path field "${field}" is not snake_case`,
            'name path fields like widget_id',
          );
      }
      path += extra.map((f) => `/{${f}}`).join('');
    } else if (extra.length > 0) {
      const what = kind === 'endpoint' ? 'an Endpoint path is exact' : `${name} is on the exact mount path`;
      throw wiringError(
        'API_WIRING_PATH_BINDING',
        where,
        `path fields ${extra.map((f) => `"${f}"`).join(', ')} ` + `are not slots of "${info.path}" (${what})`,
        'remove them, or move the operation to an item operation / a path with those slots',
      );
    }
    const allSlots = [...slots, ...extra];
    if (spec.path) pathBinder(spec.path, allSlots, where); // validates defaults/optionals now
    const responses = normalizeReturns(where, spec);
    records.push({
      info: newRouteInfo({
        method: op.method,
        path: prefix === '' ? path : path === '/' ? prefix : prefix + path,
        ...(prefix === '' ? {} : { mountPrefix: prefix }),
        kind: 'operation',
        owner: className,
        ownerClass: cls,
        operation: name,
        spec,
        classMeta: info.meta,
        ref: info.ref,
        responses,
        defaultStatus: op.status,
        mountOptions: options,
        hidden: false,
      }),
      target: {
        kind: 'operation',
        handler: operation.handler as (input: Record<string, unknown>) => unknown,
      },
      slots: allSlots,
      limits,
      mountMiddleware,
    });
  }
  checkInterceptsReach(
    `${appName}.${method}(${className})`,
    mountMiddleware,
    records.map((r) => r.info.method),
  );
  if (count === 0) {
    const names = Object.keys(table).join(', ');
    throw wiringError(
      'API_WIRING_NO_OPERATION',
      `${appName}.${method}(${className})`,
      'declares no operation',
      `add one of ${names} as \`= this.operation({ … }, handler)\``,
    );
  }
  return records;
}

/** Normalizes `returns:` into response declarations (one plain member at most; wrappers once each). */
export function normalizeReturns(where: string, spec: OperationSpec): ResponseKindFacts[] {
  if (spec.returns === undefined)
    return [
      {
        kind: 'empty',
        cls: undefined,
        schema: undefined,
        headers: undefined,
        status: 204,
        contentType: undefined,
      },
    ];
  const list = (Array.isArray(spec.returns) ? spec.returns : [spec.returns]) as unknown[];
  const out: ResponseKindFacts[] = [];
  for (const entry of list) {
    const info = responseFacts(entry);
    if (info) out.push(info);
    else if (
      (entry && typeof entry === 'object' && 'kind' in entry && entry.kind === 'schema') ||
      isStandardSchema(entry)
    ) {
      out.push(responseFacts(plainJson(entry as AnySchema))!);
    } else {
      throw wiringError(
        'API_WIRING_RETURNS',
        where,
        'a returns entry is neither a schema nor a response declaration',
        'use a valibot or Standard Schema (zod, ArkType), JSONResponse.of(schema), Created.of(schema), ' +
          'NoContent.of(), BytesResponse.of(), Text or Bytes',
      );
    }
  }
  const plain = out.filter((i) => i.cls === undefined && !isExtensionKind(i));
  if (plain.length > 1)
    throw wiringError(
      'API_WIRING_RETURNS',
      where,
      `returns lists ${plain.length} plain members; a union ` +
        'can hold one plain value and any number of wrappers',
      'wrap the others (JSONResponse.of, NoContent.of, …) or combine the schemas with v.union',
    );
  const classes = out.filter((i) => i.cls !== undefined).map((i) => i.cls);
  if (new Set(classes).size !== classes.length)
    throw wiringError(
      'API_WIRING_RETURNS',
      where,
      'returns lists the same wrapper class twice',
      'declare each wrapper once; combine bodies with v.union',
    );
  return out;
}

/** An operation under a name its class kind does not route (`readOen`) is a mistake, not a no-op. */
function checkOperationNames(className: string, instance: object, names: readonly string[]): void {
  for (const key of Object.keys(instance)) {
    if (names.includes(key) || !isOperation((instance as Record<string, unknown>)[key])) continue;
    const guess = closestName(key, names);
    throw wiringError(
      'API_WIRING_NOT_AN_OPERATION',
      `${className}.${key}`,
      `"${key}" is not an operation name of this class kind, so it ` +
        `would never be routed${guess ? ` (did you mean ${guess}?)` : ''}`,
      `name it one of ${names.join(', ')}`,
    );
  }
}

/** Source rules TypeScript cannot see: bodies on bodiless methods, non-object header/cookie schemas. */
function checkSources(where: string, method: string, spec: OperationSpec): void {
  for (const body of ['json', 'form', 'content'] as const) {
    if (spec[body] !== undefined && (method === 'GET' || method === 'DELETE'))
      throw wiringError(
        'API_WIRING_REQUEST_BODY',
        where,
        `declares a ${body} body on ${method}, which carries none (HEAD is served from GET)`,
        'move the input to params or path, or use POST/PUT/PATCH',
      );
  }
  for (const source of ['path', 'params', 'headers', 'cookies', 'form'] as const) {
    const schema: unknown = spec[source];
    if (isStandardSchema(schema)) {
      if (!standardFields(schema)) throw noShape(where, source);
      continue;
    }
    if (schema !== undefined && !(isSchema(schema) && objectEntries(schema)))
      throw wiringError(
        'API_WIRING_NOT_A_SCHEMA',
        where,
        `the ${source} source is not an object schema` +
          (isSchema(schema)
            ? ''
            : ` (got ${describeValue(schema)}; a plain object of fields is not a schema)`),
        `declare ${source} as a Struct (named fields)`,
      );
  }
  for (const source of ['json', 'user'] as const) {
    const schema: unknown = spec[source];
    if (schema !== undefined && !isSchema(schema) && !(source === 'json' && isStandardSchema(schema)))
      throw wiringError(
        'API_WIRING_NOT_A_SCHEMA',
        where,
        `the ${source} source must be a valibot schema` +
          `${source === 'json' ? ' or a Standard Schema (zod, ArkType)' : ''}, got ${describeValue(schema)}`,
        `${source}: ${source === 'json' ? 'WidgetIn' : 'User'} (a Struct or a v.* schema)`,
      );
  }
  for (const source of ['content', 'rawHeaders', 'requestId', 'signal'] as const) {
    const flag: unknown = spec[source];
    if (flag !== undefined && flag !== true)
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `the ${source} source is declared with true, got ${describeValue(flag)}`,
        `${source}: true, or leave it out`,
      );
  }
}

/** The field names of a path schema: valibot's entries, or a Standard Schema's JSON Schema properties. */
function fieldNames(schema: unknown): string[] {
  if (isStandardSchema(schema)) return (standardFields(schema) ?? []).map((f) => f.key);
  return Object.keys(objectEntries(schema as v.GenericSchema) ?? {});
}
