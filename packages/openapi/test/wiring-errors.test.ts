// Every mistake fails startup with a WiringError that names where, what, and the fix.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { Endpoint, HTTPError, JSONResponse, Resource, Struct, Tag, WiringError } from '@api/core';
import { mountOption } from '@api/core/extension';
import { bearerAuth, cookieAuth, SecurityScheme } from '@api/auth';
import { openapi, type OpenAPIOptions } from '../src/index';
import { appOf } from './helpers';

type Mount = (a: {
  includeResource: (r: object, o?: object) => void;
  includeEndpoint: (e: object, o?: object) => void;
}) => void;

async function startupError(mount: Mount, options: Partial<OpenAPIOptions> = {}): Promise<WiringError> {
  const app = appOf((a) => {
    mount(a);
    a.include(openapi({ title: 'T', version: '1', docsPath: null, ...options } as OpenAPIOptions));
  });
  const error = await app.start().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WiringError);
  await app.close();
  return error as WiringError;
}

const S = Struct('S', { a: v.string() });
function endpoint(path: string, spec: object, className = 'E'): object {
  const cls = class extends Endpoint(path) {
    get = this.operation(spec as never, () => undefined as never);
  };
  Object.defineProperty(cls, 'name', { value: className });
  return new cls();
}

describe('operations', () => {
  it('two operations with one operationId', async () => {
    const error = await startupError((a) => {
      a.includeEndpoint(endpoint('/a', { returns: S, meta: { operationId: 'getThing' } }, 'A'));
      a.includeEndpoint(endpoint('/b', { returns: S, meta: { operationId: 'getThing' } }, 'B'));
    });
    expect(error.message).toBe(
      'B.get: operationId "getThing" is already used by A.get. Fix: give one of them a unique meta: { operationId: \'…\' }.',
    );
    expect(error.code).toBe('API_WIRING_DUPLICATE');
  });

  it('an explicit operationId that repeats a default one', async () => {
    const error = await startupError((a) => {
      a.includeEndpoint(endpoint('/a', { returns: S }, 'A'));
      a.includeEndpoint(endpoint('/b', { returns: S, meta: { operationId: 'A_get' } }, 'B'));
    });
    expect(error.message).toMatch(/^B\.get: operationId "A_get" is already used by A\.get\./);
  });

  it('one tag described two ways', async () => {
    const error = await startupError((a) => {
      a.includeEndpoint(endpoint('/a', { returns: S, meta: { tags: [new Tag('w', 'Widgets.')] } }, 'A'));
      a.includeEndpoint(endpoint('/b', { returns: S, meta: { tags: [new Tag('w', 'Other words.')] } }, 'B'));
    });
    expect(error.message).toBe(
      'B.get meta: tag "w" is described two ways ("Widgets." in A.get meta, "Other words." here). Fix: describe it once (one shared Tag object), or use the bare name \'w\' elsewhere.',
    );
    expect(error.code).toBe('API_WIRING_OPENAPI_CONFLICT');
  });

  it('a tag described differently in openapi({ tags }) and on a class', async () => {
    const error = await startupError(
      (a) => a.includeEndpoint(endpoint('/a', { returns: S, meta: { tags: [new Tag('w', 'Two.')] } }, 'A')),
      { tags: [new Tag('w', 'One.')] },
    );
    expect(error.message).toMatch(
      /^A\.get meta: tag "w" is described two ways \("One\." in openapi\(\{ tags \}\), "Two\." here\)/,
    );
  });

  it('exceptions listing something that is not an HTTP error class', async () => {
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/a', { returns: S, meta: { exceptions: [RangeError] } }, 'A')),
    );
    expect(error.message).toBe(
      'A.get: exceptions lists RangeError, which is not an HTTP error class. Fix: list classes declared with HTTPError.define, DataclassHTTPError.define or StructHTTPError.define.',
    );
    expect(error.code).toBe('API_WIRING_NOT_AN_ERROR_CLASS');
  });

  it('two error classes that document under one Problem name', async () => {
    const First = class GoneError extends HTTPError.define({ type: 'gone-a', title: 'A', status: 410 }) {};
    const Second = class GoneError extends HTTPError.define({ type: 'gone-b', title: 'B', status: 410 }) {};
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/a', { returns: S, meta: { exceptions: [First, Second] } }, 'A')),
    );
    expect(error.message).toBe(
      'A.get: two different error classes document as "GoneProblem" (types "gone-a" and "gone-b"). Fix: rename one of the classes.',
    );
    expect(error.code).toBe('API_WIRING_OPENAPI_CONFLICT');
  });

  it('a responses entry keyed by something that is not a status', async () => {
    const error = await startupError((a) =>
      a.includeEndpoint(
        endpoint('/a', { returns: S, meta: { responses: { 99: { description: 'x' } } } }, 'A'),
      ),
    );
    expect(error.message).toBe(
      'A.get: meta.responses has status "99". Fix: use an HTTP status from 100 to 599 as the key.',
    );
    expect(error.code).toBe('API_WIRING_STATUS');
  });
});

describe('models', () => {
  it('two different models with one name', async () => {
    const One = Struct('Thing', { a: v.string() });
    const Two = Struct('Thing', { b: v.number() });
    const error = await startupError((a) => {
      a.includeEndpoint(endpoint('/a', { returns: One }, 'A'));
      a.includeEndpoint(endpoint('/b', { returns: Two }, 'B'));
    });
    expect(error.message).toBe(
      "B.get: two different models are named \"Thing\" (the other is used by A.get). Fix: give one of them another name: Struct('Other', …) or Struct('Thing', …, { name: 'Other' }).",
    );
    expect(error.code).toBe('API_WIRING_OPENAPI_CONFLICT');
  });

  it('a name override that collides with another model', async () => {
    const One = Struct('Widget', { a: v.string() });
    const Two = Struct('WidgetV2', { b: v.number() }, { name: 'Widget' });
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/a', { returns: JSONResponse.of(v.object({ one: One, two: Two })) }, 'A')),
    );
    expect(error.message).toMatch(/^A\.get: two different models are named "Widget"/);
  });

  it('a model name that cannot be a component key', async () => {
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/a', { returns: Struct('My Thing!', { a: v.string() }) }, 'A')),
    );
    expect(error.message).toBe(
      'A.get: model name "My Thing!" cannot be a components.schemas key (letters, digits, ".", "-" and "_" only). Fix: rename the Struct, or give it { name: \'MyThing\' }.',
    );
    expect(error.code).toBe('API_WIRING_OPENAPI_NAME');
  });

  it('a model named like the Problem component of an error class', async () => {
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/a', { returns: Struct('InternalServerProblem', { a: v.string() }) }, 'A')),
    );
    expect(error.message).toBe(
      'openapi: a model is named "InternalServerProblem", which is also the Problem component of an error class. Fix: rename the model (Struct(\'InternalServerBody\', …) or { name }).',
    );
    expect(error.code).toBe('API_WIRING_OPENAPI_CONFLICT');
  });

  it('an untagged union of several Structs in a response', async () => {
    const Cat = Struct('Cat', { meows: v.boolean() });
    const Dog = Struct('Dog', { barks: v.boolean() });
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/pet', { returns: v.union([Cat, Dog]) }, 'PetEndpoint')),
    );
    expect(error.message).toBe(
      'PetEndpoint.get: returns an untagged union of Structs (Cat | Dog); clients cannot tell the members apart. Fix: declare every member with Struct(name, entries, { tag: true }) so each carries a "type" discriminator (untagged: Cat, Dog).',
    );
    expect(error.code).toBe('API_WIRING_OPENAPI_UNTAGGED_UNION');
  });

  it('an untagged union nested in an array or a stream item, and a half-tagged union', async () => {
    const Cat = Struct('Cat', { meows: v.boolean() }, { tag: true });
    const Dog = Struct('Dog', { barks: v.boolean() });
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/pets', { returns: v.array(v.union([Cat, Dog])) }, 'Pets')),
    );
    expect(error.message).toMatch(
      /^Pets\.get: returns an untagged union of Structs \(Cat \| Dog\);.*\(untagged: Dog\)\.$/,
    );
  });

  it('accepts the same untagged union in a request body (only responses must be discriminated)', async () => {
    const Cat = Struct('Cat', { meows: v.boolean() });
    const Dog = Struct('Dog', { barks: v.boolean() });
    const app = appOf((a) => {
      a.includeEndpoint(
        new (class Pets extends Endpoint('/pets') {
          post = this.operation({ json: v.union([Cat, Dog]) }, () => undefined);
        })(),
      );
      a.include(openapi({ title: 'T', version: '1', docsPath: null }));
    });
    await expect(app.start()).resolves.toBeUndefined();
    await app.close();
  });
});

describe('security', () => {
  const U = Struct('U', { id: v.string() });
  const H = Struct('H', { authorization: v.string() });

  it('an openapiSecurity that is not a SecurityScheme (as @api/auth rejects it)', () => {
    expect(() =>
      bearerAuth({
        headers: H,
        user: U,
        openapiSecurity: { type: 'http', scheme: 'bearer' } as unknown as SecurityScheme,
        authenticate: () => ({ id: 'x' }),
      }),
    ).toThrow(WiringError);
  });

  it('a mount option whose auth facts carry something that is not a SecurityScheme', async () => {
    const fake = { [mountOption]: () => ({ facts: { auth: { anonymous: false, scheme: 'bearer' } } }) };
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/a', { returns: S }, 'A'), { auth: fake }),
    );
    expect(error.message).toBe(
      "A.get: the mount's authenticator advertises an openapiSecurity that is not a SecurityScheme. Fix: use SecurityScheme.httpBearer(), SecurityScheme.httpBasic() or SecurityScheme.apiKey({ name, location }) from @api/auth.",
    );
  });

  it('a cookie authenticator reading several cookies, without openapiSecurity (which one is the credential?)', async () => {
    const twoCookies = cookieAuth({
      cookies: Struct('TwoCookies', { session_id: v.string(), device: v.string() }),
      user: U,
      authenticate: () => ({ id: 'x' }),
    });
    const error = await startupError((a) =>
      a.includeEndpoint(endpoint('/a', { returns: S, user: U }, 'A'), { auth: twoCookies }),
    );
    expect(error.message).toBe(
      "A.get: the mount's authenticator cannot be described in OpenAPI (cookieAuth({ cookies }) reads 2 cookies (session_id, device), and an OpenAPI API key is one cookie). Fix: give it openapiSecurity: the scheme clients use, e.g. SecurityScheme.apiKey({ name: 'session_id', location: 'cookie' }), or a list of alternatives.",
    );
    expect(error.code).toBe('API_WIRING_OPENAPI_UNDESCRIBED');
  });

  it('one scheme name declared two ways', async () => {
    const a1 = bearerAuth({
      headers: H,
      user: U,
      openapiSecurity: SecurityScheme.apiKey({ name: 'a_key', location: 'cookie' }),
      authenticate: () => ({ id: 'x' }),
    });
    const a2 = bearerAuth({
      headers: H,
      user: U,
      openapiSecurity: SecurityScheme.apiKey({ name: 'b_key', location: 'cookie' }),
      authenticate: () => ({ id: 'x' }),
    });
    const error = await startupError((a) => {
      a.includeEndpoint(endpoint('/a', { returns: S }, 'A'), { auth: a1 });
      a.includeEndpoint(endpoint('/b', { returns: S }, 'B'), { auth: a2 });
    });
    expect(error.message).toBe(
      'B.get: security scheme "apiKeyAuth" is declared two ways ({"type":"apiKey","name":"a_key","in":"cookie"} by A.get, {"type":"apiKey","name":"b_key","in":"cookie"} here). Fix: give one of them its own schemeName, e.g. SecurityScheme.apiKey({ …, schemeName: \'apiKeyAuth2\' }).',
    );
    expect(error.code).toBe('API_WIRING_OPENAPI_CONFLICT');
  });
});

describe('options', () => {
  const none: Mount = () => undefined;

  it('title and version are required', async () => {
    expect((await startupError(none, { title: '' })).message).toBe(
      "openapi(): title is required. Fix: pass { title: 'My API', version: '1.0.0' }.",
    );
    expect((await startupError(none, { version: undefined as unknown as string })).message).toBe(
      "openapi(): version is required (the API version string). Fix: pass { title: 'My API', version: '1.0.0' }.",
    );
  });

  it('an unknown option (a typo)', async () => {
    expect((await startupError(none, { docs_path: '/x' } as Partial<OpenAPIOptions>)).message).toBe(
      'openapi(): unknown option "docs_path" (did you mean "docsPath"?). Fix: use only title, version, description, openapiPath, docsPath, servers, tags, docsHtml, favicon, scalarConfig, openapiVersion, prefixRoutes.',
    );
  });

  it('paths that are not exact, and one path for both', async () => {
    expect((await startupError(none, { openapiPath: 'openapi.json' })).message).toBe(
      'openapi(): openapiPath "openapi.json" is not an exact path. Fix: use a path like \'/openapi.json\' (starts with "/", no {slots}, query or spaces).',
    );
    expect((await startupError(none, { docsPath: '/docs/{x}' })).message).toMatch(
      /^openapi\(\): docsPath "\/docs\/\{x\}" is not an exact path/,
    );
    expect((await startupError(none, { docsPath: '/same', openapiPath: '/same' })).message).toBe(
      'openapi(): docsPath and openapiPath are both "/same". Fix: give them different paths.',
    );
  });

  it('an unknown Scalar theme, an unknown scalarConfig field, a wrong type', async () => {
    expect((await startupError(none, { scalarConfig: { theme: 'neon' as never } })).message).toBe(
      'openapi(): scalarConfig.theme "neon" is not a Scalar theme. Fix: use one of default, alternate, moon, purple, solarized, bluePlanet, deepSpace, saturn, kepler, elysiajs, fastify, mars, laserwave, none.',
    );
    expect((await startupError(none, { scalarConfig: { hideClient: true } as never })).message).toBe(
      'openapi(): scalarConfig has an unknown field "hideClient". Fix: use only theme, layout, darkMode, hideModels, hideSearch, hideDownloadButton, hideTestRequestButton, hideDarkModeToggle, showSidebar.',
    );
    expect((await startupError(none, { scalarConfig: { darkMode: 'yes' as never } })).message).toBe(
      'openapi(): scalarConfig.darkMode is not a boolean. Fix: set darkMode: true or false.',
    );
    expect((await startupError(none, { scalarConfig: { layout: 'grid' as never } })).message).toBe(
      "openapi(): scalarConfig.layout \"grid\" is not a Scalar layout. Fix: use 'modern' or 'classic'.",
    );
  });

  it('a favicon file that is missing, or has another suffix', async () => {
    const missing = await startupError(none, { favicon: { file: '/nonexistent/favicon.png' } });
    expect(missing.message).toBe(
      'openapi({ favicon }): cannot read favicon file /nonexistent/favicon.png (ENOENT). Fix: point { file } at an existing, readable .ico, .png or .svg file.',
    );
    const gif = await startupError(none, { favicon: { file: '/tmp/favicon.gif' } });
    expect(gif.message).toBe(
      'openapi({ favicon }): /tmp/favicon.gif has suffix ".gif"; a favicon is .ico, .png or .svg. Fix: convert it to one of those, or pass a URL string to link it instead.',
    );
    const directory = await startupError(none, { favicon: { file: new URL('file:///tmp/dir.svg/') } });
    expect(directory.message).toMatch(/^openapi\(\{ favicon \}\): /);
  });

  it('an unsupported openapiVersion', async () => {
    expect((await startupError(none, { openapiVersion: '3.0.3' as never })).message).toBe(
      "openapi(): openapiVersion \"3.0.3\" is not supported. Fix: use '3.1.0' (default) or '3.2.0'.",
    );
  });

  it('fails before anything is served: the app never starts', async () => {
    const app = appOf((a) => {
      a.includeResource(
        new (class R extends Resource('/r') {
          readMany = this.operation({ returns: v.array(S), meta: { operationId: 'x' } }, () => []);
          create = this.operation({ json: S, returns: S, meta: { operationId: 'x' } }, ({ json }) => json);
        })(),
      );
      a.include(openapi({ title: 'T', version: '1' }));
    });
    await expect(app.start()).rejects.toThrow(WiringError);
    expect(app.serving).toBe(false);
  });
});
