// Issue 11: every wrong JS-level argument to a public constructor or factory of @api/core is a
// WiringError (a TypeError) whose message names the class or factory, the argument and the fix.
// Each row failed before: a bare TypeError, another error class, or no error at all.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  Accepted,
  BytesResponse,
  ConflictError,
  Created,
  DataclassHTTPError,
  defineExceptionHandler,
  defineMiddleware,
  Endpoint,
  ExceptionResponse,
  ExitStack,
  FileFormPart,
  FormPart,
  HTTPError,
  JSONResponse,
  Link,
  Location,
  MalformedRequestError,
  NoContent,
  RawHeadersView,
  Resource,
  SetCookie,
  Struct,
  StructHTTPError,
  Tag,
  type WiringErrorCode,
} from '../src/index';
import { expectWiringError } from './expect-wiring-error';
import { compileValidator, defineExtension, defineResponseKind, parseTemplate } from '../src/extension';

const Widget = Struct('Widget', { id: v.string() });
const Params = Struct('Params', { id: v.string() });
const Body = Struct('Body', { code: v.string() });
class UpstreamError extends Error {}
const handleException = (): undefined => undefined;
const any = (value: unknown): never => value as never;

/** [what, code, call, exact message] */
export const rows: [string, WiringErrorCode, () => unknown, string][] = [
  // responses: declarations
  [
    'JSONResponse.of(non-schema)',
    'API_WIRING_NOT_A_SCHEMA',
    () => JSONResponse.of(any('Widget')),
    'JSONResponse.of: the body schema must be a valibot schema or a Standard Schema (zod, ArkType), got a string. Fix: pass a Struct, a v.* schema or a zod/ArkType schema, e.g. JSONResponse.of(Widget).',
  ],
  [
    'Created.of: unknown option',
    'API_WIRING_UNKNOWN_OPTION',
    () => Created.of(Widget, any({ header: Body })),
    'Created.of: unknown option "header". Fix: use only headers.',
  ],
  [
    'Accepted.of: headers not an object schema',
    'API_WIRING_NOT_A_SCHEMA',
    () => Accepted.of(Widget, any({ headers: v.string() })),
    "Accepted.of: headers must be an object schema of the typed response headers, got an object. Fix: headers: Struct('Headers', { xTraceId: v.string() }).",
  ],
  [
    'NoContent.of(string)',
    'API_WIRING_INVALID_ARGUMENT',
    () => NoContent.of(any('x')),
    'NoContent.of: options must be an object, got a string. Fix: pass { headers } or nothing.',
  ],
  [
    'BytesResponse.of: contentType not a string',
    'API_WIRING_INVALID_ARGUMENT',
    () => BytesResponse.of(any({ contentType: 1 })),
    "BytesResponse.of: contentType must be a media type string, got a number. Fix: e.g. contentType: 'image/png'.",
  ],
  [
    'ExceptionResponse.of: status outside 400–599',
    'API_WIRING_STATUS',
    () => ExceptionResponse.of(Body, any({ status: 302 })),
    'ExceptionResponse.of: status 302 is outside 400–599. Fix: pin an error status (e.g. status: 503), or leave status out.',
  ],
  // responses: constructors (typeof checks only, per request)
  [
    'new JSONResponse(undefined)',
    'API_WIRING_INVALID_ARGUMENT',
    () => new JSONResponse(any(undefined)),
    'new JSONResponse(init): expected an object of response fields, got undefined. Fix: e.g. new JSONResponse({ json: value }).',
  ],
  [
    'new JSONResponse: statusCode 99',
    'API_WIRING_STATUS',
    () => new JSONResponse(any({ json: 1, statusCode: 99 })),
    "new JSONResponse: statusCode must be an integer from 200 to 599, got 99. Fix: e.g. statusCode: 201, or leave it out for the operation's default.",
  ],
  [
    'new JSONResponse: json missing',
    'API_WIRING_INVALID_ARGUMENT',
    () => new JSONResponse(any({ statusCode: 200 })),
    'new JSONResponse: the "json" field is missing. Fix: new JSONResponse({ json: value }).',
  ],
  [
    'new Created: a cookie that is not a SetCookie',
    'API_WIRING_INVALID_ARGUMENT',
    () => new Created(any({ json: 1, cookies: [{ name: 'a' }] })),
    "new Created: cookies holds an object, not a SetCookie. Fix: cookies: [new SetCookie('name', 'value')].",
  ],
  [
    'new NoContent: location as a string',
    'API_WIRING_INVALID_ARGUMENT',
    () => new NoContent(any({ location: '/x' })),
    "new NoContent: location must be a Location, got a string. Fix: location: Location.fromPath('/widgets/1') (or fromOperation, fromRef, fromUrl).",
  ],
  [
    'new Accepted: links as a string',
    'API_WIRING_INVALID_ARGUMENT',
    () => new Accepted(any({ json: 1, links: '</x>; rel=next' })),
    "new Accepted: links must be a Link or an array of Link, got a string. Fix: links: [Link.fromRef('widgets.readMany', { rel: 'collection' })].",
  ],
  [
    'new BytesResponse: content as a string',
    'API_WIRING_INVALID_ARGUMENT',
    () => new BytesResponse(any({ content: 'text' })),
    'new BytesResponse: content must be a Uint8Array (or Buffer), got a string. Fix: content: Buffer.from(text) or new Uint8Array(bytes).',
  ],
  [
    'new ExceptionResponse: statusCode as a string',
    'API_WIRING_INVALID_ARGUMENT',
    () => new ExceptionResponse(any({ statusCode: '409', json: {} })),
    'ExceptionResponse: statusCode must be an integer from 400 to 599, got a string. Fix: e.g. statusCode: 409.',
  ],
  [
    'new ExceptionResponse(null)',
    'API_WIRING_INVALID_ARGUMENT',
    () => new ExceptionResponse(any(null)),
    'new ExceptionResponse(init): expected { statusCode, json, headers?, cookies? }, got null. Fix: new ExceptionResponse({ statusCode: 409, json: body }).',
  ],
  // Location and Link
  [
    'Location.fromPath: relative path',
    'API_WIRING_INVALID_PATH',
    () => Location.fromPath('widgets/1'),
    'Location.fromPath: expected an absolute path on this app starting with "/", got "widgets/1". Fix: e.g. Location.fromPath(\'/widgets/1\'); use fromUrl for another origin.',
  ],
  [
    'Location.fromOperation: class name as a string',
    'API_WIRING_INVALID_ARGUMENT',
    () => Location.fromOperation(any('WidgetResource'), any('readOne')),
    "Location.fromOperation: expected a route class, got a string. Fix: Location.fromOperation(WidgetResource, 'readOne', { path: { widget_id } }).",
  ],
  [
    'Location.fromUrl(undefined)',
    'API_WIRING_INVALID_ARGUMENT',
    () => Location.fromUrl(any(undefined)),
    "Location.fromUrl: expected a URL string, got undefined. Fix: e.g. Location.fromUrl('https://docs.example/widgets').",
  ],
  [
    'Location.fromRef: path not an object',
    'API_WIRING_INVALID_ARGUMENT',
    () => Location.fromRef('widgets.readOne', any({ path: 'x' })),
    'Location.fromRef: "path" must be an object of slot → value, got a string. Fix: { path: { widget_id: widget.id } }.',
  ],
  [
    'Link.fromRef: rel missing',
    'API_WIRING_INVALID_ARGUMENT',
    () => Link.fromRef('widgets.readMany', any({ title: 'All' })),
    "Link.fromRef: \"rel\" is required (a link relation such as 'next' or 'collection'), got undefined. Fix: { rel: 'collection' }.",
  ],
  [
    'Link.fromPath: params null',
    'API_WIRING_INVALID_ARGUMENT',
    () => Link.fromPath('/x', any(null)),
    "Link.fromPath: expected link params { rel, title?, mediaType? }, got null. Fix: e.g. { rel: 'collection' }.",
  ],
  // cookies
  [
    'new SetCookie: misspelt attribute',
    'API_WIRING_COOKIE',
    () => new SetCookie('sid', 'v', any({ httponly: false })),
    'SetCookie "sid": unknown attribute "httponly". Fix: use only maxAge, expires, path, domain, secure, httpOnly, sameSite, partitioned.',
  ],
  [
    'new SetCookie: secure as a string',
    'API_WIRING_COOKIE',
    () => new SetCookie('sid', 'v', any({ secure: 'false' })),
    'SetCookie "sid": attribute "secure" must be true or false, got a string. Fix: secure: false, or leave it out for the default.',
  ],
  [
    'new SetCookie: options null',
    'API_WIRING_COOKIE',
    () => new SetCookie('sid', 'v', any(null)),
    'SetCookie "sid": options must be an object of attributes, got null. Fix: e.g. { maxAge: 3600 }, or nothing for the secure defaults.',
  ],
  [
    'SetCookie.expire: unknown option',
    'API_WIRING_COOKIE',
    () => SetCookie.expire('sid', any({ maxAge: 0 })),
    'SetCookie.expire("sid"): unknown option "maxAge". Fix: use only path, domain (they must match the cookie being cleared).',
  ],
  // errors
  [
    'HTTPError.define: unknown option',
    'API_WIRING_UNKNOWN_OPTION',
    () => HTTPError.define(any({ type: 'x', title: 'X', status: 418, doc: 'u' })),
    'HTTPError.define({ type: \'x\' }): unknown option "doc". Fix: use only type, title, status, docs.',
  ],
  [
    'HTTPError.define(undefined)',
    'API_WIRING_INVALID_ARGUMENT',
    () => HTTPError.define(any(undefined)),
    'HTTPError.define: expected an options object, got undefined. Fix: pass { type, title, status, docs }.',
  ],
  [
    'HTTPError.define: type missing',
    'API_WIRING_INVALID_ARGUMENT',
    () => HTTPError.define(any({ title: 'X', status: 418 })),
    'HTTPError.define({ type: ? }): "type" must be a non-empty string, got undefined. Fix: e.g. type: \'widget-not-found\'.',
  ],
  [
    'DataclassHTTPError.define: params schema missing',
    'API_WIRING_NOT_A_SCHEMA',
    () =>
      DataclassHTTPError.define(
        any(undefined),
        any({
          type: 'x',
          title: 'X',
          status: 404,
          detailTemplate: '',
        }),
      ),
    "DataclassHTTPError.define({ type: 'x' }): params schema is not an object schema (got undefined). Fix: pass a Struct (or a zod/ArkType object schema whose library offers JSON Schema) as the first argument.",
  ],
  [
    'DataclassHTTPError.define: detailTemplate missing',
    'API_WIRING_INVALID_ARGUMENT',
    () => DataclassHTTPError.define(Params, any({ type: 'x', title: 'X', status: 404 })),
    "DataclassHTTPError.define({ type: 'x' }): \"detailTemplate\" must be a string, got undefined. Fix: e.g. detailTemplate: 'Widget {widgetId} not found'.",
  ],
  [
    'StructHTTPError.define: unknown option',
    'API_WIRING_UNKNOWN_OPTION',
    () => StructHTTPError.define(Body, any({ status: 400, const: { code: 'x' } })),
    'StructHTTPError.define(Body): unknown option "const". Fix: use only status, description, consts, templates, statusField, paramsField, params.',
  ],
  [
    'StructHTTPError.define: template not a string',
    'API_WIRING_ERROR_TEMPLATE',
    () => StructHTTPError.define(Body, any({ status: 400, templates: { code: 1 } })),
    'StructHTTPError.define(Body): template of field "code" must be a string, got a number. Fix: e.g. templates: { code: \'No {thing}\' }.',
  ],
  [
    'new MalformedRequestError(undefined)',
    'API_WIRING_INVALID_ARGUMENT',
    () => new MalformedRequestError(any(undefined)),
    'new MalformedRequestError(params): expected the params object, got undefined. Fix: pass the fields of ErrorReason, e.g. new MalformedRequestError({ … }).',
  ],
  [
    'withHeaders(null)',
    'API_WIRING_INVALID_ARGUMENT',
    () => new ConflictError().withHeaders(any(null)),
    "ConflictError.withHeaders: expected an object of header name → value, got null. Fix: e.g. withHeaders({ 'retry-after': '30' }).",
  ],
  // exception handlers, middleware, extensions
  [
    'defineExceptionHandler: exception as a string',
    'API_WIRING_INVALID_ARGUMENT',
    () => defineExceptionHandler(any({ exception: 'UpstreamError', handleException })),
    'defineExceptionHandler: a handler needs "exception" (a class) and "handleException". Fix: use defineExceptionHandler({ exception, handleException }).',
  ],
  [
    'defineExceptionHandler: exception not an Error class',
    'API_WIRING_NOT_AN_ERROR_CLASS',
    () => defineExceptionHandler(any({ exception: class Plain {}, handleException })),
    'defineExceptionHandler: "exception" is a function (Plain), which does not extend Error, so it never matches a thrown error. Fix: pass an Error subclass, e.g. exception: DuplicateNameError.',
  ],
  [
    'defineExceptionHandler: returns not a list',
    'API_WIRING_RETURNS',
    () => defineExceptionHandler(any({ exception: UpstreamError, returns: ConflictError, handleException })),
    'defineExceptionHandler: handler for UpstreamError declares returns as a function (ConflictError), not a list. Fix: returns: [ExceptionResponse.of(Body), SomeHTTPError].',
  ],
  [
    'defineExceptionHandler: unknown key',
    'API_WIRING_UNKNOWN_OPTION',
    () => defineExceptionHandler(any({ exception: UpstreamError, handle: handleException, handleException })),
    'defineExceptionHandler: handler for UpstreamError has unknown key "handle". Fix: use only exception, returns, handleException.',
  ],
  [
    'defineMiddleware: misspelt hook',
    'API_WIRING_UNKNOWN_OPTION',
    () => defineMiddleware(any({ responseHeader: { 'x-a': '1' } })),
    'defineMiddleware: unknown middleware key "responseHeader". Fix: use only headers, responseHeaders, intercept, interceptMethods, observe.',
  ],
  [
    'defineMiddleware: headers as plain fields',
    'API_WIRING_NOT_A_SCHEMA',
    () => defineMiddleware(any({ headers: { x_id: v.string() }, observe() {} })),
    "defineMiddleware: headers must be an object schema (the request headers the hooks read), got an object. Fix: headers: Struct('Headers', { x_request_id: v.optional(v.string()) }).",
  ],
  [
    'defineExtension: empty name',
    'API_WIRING_INVALID_ARGUMENT',
    () =>
      defineExtension(
        any({
          name: '',
          setup() {},
        }),
      ),
    'defineExtension: "name" must be a non-empty string (it names the extension in wiring errors), got an empty string. Fix: name: \'my-extension\'.',
  ],
  [
    'defineExtension: setup not a function',
    'API_WIRING_INVALID_ARGUMENT',
    () => defineExtension(any({ name: 'x', setup: 1 })),
    'defineExtension(x): "setup" must be a function (wiring) => value, got a number. Fix: setup(wiring) { … }.',
  ],
  [
    'defineExtension: unknown key',
    'API_WIRING_UNKNOWN_OPTION',
    () => defineExtension(any({ name: 'x', setup() {}, teardown() {} })),
    'defineExtension(x): unknown key "teardown". Fix: an extension is { name, setup(wiring) }; do the rest inside setup.',
  ],
  [
    'defineResponseKind: compile missing',
    'API_WIRING_INVALID_ARGUMENT',
    () =>
      defineResponseKind(
        any({
          kind: 'csv',
          cls: undefined,
          schema: undefined,
          headers: undefined,
          status: undefined,
          contentType: 'text/csv',
        }),
      ),
    'defineResponseKind(csv): "compile" must be a function (ctx) => writer, got undefined. Fix: compile: (ctx) => (value, sink) => { … }.',
  ],
  // models, routes, forms, extension helpers
  [
    'new RawHeadersView(a header object)',
    'API_WIRING_INVALID_ARGUMENT',
    () => new RawHeadersView(any({ 'x-id': '1' })),
    "new RawHeadersView(flat): expected alternating names and values (an array, as IncomingMessage.rawHeaders), got an object. Fix: new RawHeadersView(['X-Id', '1']).",
  ],
  [
    'new Tag(empty)',
    'API_WIRING_INVALID_ARGUMENT',
    () => new Tag(''),
    "new Tag(name): name must be a non-empty string, got an empty string. Fix: new Tag('widgets', 'Create, read, and manage widgets.').",
  ],
  [
    'Endpoint: unknown option',
    'API_WIRING_UNKNOWN_OPTION',
    () => Endpoint('/x', any({ reff: 'x' })),
    'Endpoint(\'/x\', …): unknown option "reff". Fix: use only name, ref, meta.',
  ],
  [
    'Resource: ref with a dot',
    'API_WIRING_INVALID_ARGUMENT',
    () => Resource('/x', { ref: 'a.b' }),
    "Resource('/x', { ref }): ref must be a name without dots (\"a.b\"). Fix: ref: 'widgets', then Location.fromRef('widgets.readOne').",
  ],
  [
    'FormPart(non-schema)',
    'API_WIRING_NOT_A_SCHEMA',
    () => FormPart(any('text')),
    "FormPart: the part's value must be a valibot schema, got a string. Fix: FormPart(v.string()) or FormPart(Meta) (a JSON part); FormPart.bytes() for raw bytes.",
  ],
  [
    'FileFormPart: unknown option',
    'API_WIRING_UNKNOWN_OPTION',
    () => FileFormPart(any({ header: Body })),
    'FileFormPart: unknown option "header". Fix: the only option is headers.',
  ],
  [
    'FormPart.bytes: headers not a schema',
    'API_WIRING_NOT_A_SCHEMA',
    () => FormPart.bytes(any({ headers: { x: 1 } })),
    "FormPart.bytes: headers must be an object schema of the part's headers, got an object. Fix: headers: Struct('PartHeaders', { x_checksum: v.string() }).",
  ],
  [
    'compileValidator(plain object)',
    'API_WIRING_NOT_A_SCHEMA',
    () => compileValidator(any({ id: v.string() })),
    'compileValidator(schema): expected a valibot schema, got an object. Fix: pass a Struct or a v.* schema.',
  ],
  [
    'parseTemplate(undefined)',
    'API_WIRING_INVALID_PATH',
    () => parseTemplate(any(undefined)),
    'parseTemplate(undefined): expected a path template starting with "/". Fix: e.g. "/widgets/{widget_id}".',
  ],
  [
    'this.operation: handler not a function',
    'API_WIRING_INVALID_ARGUMENT',
    () => {
      class Broken extends Endpoint('/broken') {
        get = this.operation({ returns: Widget }, any('handler'));
      }
      return new Broken();
    },
    'Broken.operation: the handler must be a function, got a string. Fix: this.operation({ … }, (input) => value).',
  ],
  // models
  [
    'Struct(non-string name)',
    'API_WIRING_INVALID_ARGUMENT',
    () => Struct(any(3), {}),
    "Struct(…): the name must be a non-empty string, got a number. Fix: Struct('Widget', { id: v.string() }).",
  ],
  [
    'Struct(name, non-object entries)',
    'API_WIRING_INVALID_ARGUMENT',
    () => Struct('W', any([v.string()])),
    'Struct("W"): the entries must be an object of valibot schemas, got an array. Fix: Struct(name, { id: v.string() }).',
  ],
  [
    'Struct: a field that is not a schema',
    'API_WIRING_NOT_A_SCHEMA',
    () => Struct('W', { id: any('string') }),
    'Struct("W"): field "id" is not a valibot schema (got a string). Fix: id: v.string() (or another valibot schema).',
  ],
  [
    'Struct: unknown meta',
    'API_WIRING_UNKNOWN_OPTION',
    () => Struct('W', {}, any({ tagged: true })),
    'Struct("W"): unknown meta "tagged". Fix: use description, name or tag.',
  ],
  [
    'Struct: tag not a boolean',
    'API_WIRING_INVALID_ARGUMENT',
    () => Struct('W', {}, any({ tag: 'yes' })),
    'Struct("W"): meta.tag must be a boolean, got a string. Fix: tag: true.',
  ],
  [
    'Struct: tagged with its own type field',
    'API_WIRING_INVALID_ARGUMENT',
    () => Struct('W', { type: v.string() }, { tag: true }),
    'Struct("W"): a tagged Struct gets its "type" field from its name; the entries declare "type" too. Fix: remove "type" from the entries, or drop tag: true.',
  ],
  // lifecycle
  [
    'ExitStack.push(non-resource)',
    'API_WIRING_NOT_CLOSEABLE',
    () => new ExitStack().push(any(42)),
    'enter: expected a resource with [Symbol.asyncDispose], [Symbol.dispose] or close(), got a number; nothing could tear it down. Fix: pass the resource itself, or register a callback with defer(() => …).',
  ],
  [
    'ExitStack.defer(non-function)',
    'API_WIRING_INVALID_ARGUMENT',
    () => new ExitStack().defer(any('close')),
    'ExitStack.defer(fn): expected a teardown function, got a string. Fix: defer(() => resource.close()).',
  ],
];

describe('wrong arguments to constructors and factories', () => {
  it.each(rows)('%s', (_what, code, call, message) => {
    // The exact message pins the wording users see (and so `where`, its first part).
    expect(expectWiringError(call, code, /./).message).toBe(message);
  });
});
