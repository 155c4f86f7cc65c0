// Path schemas from Standard Schemas (zod 4, ArkType 2) on exact paths: over a socket they bind and
// fail exactly as valibot's do; at wiring a path field that is not a slot, a slot without a field
// and an optional field are the same WiringErrors; and what tsc prints for each mistake is what it
// prints for valibot's (the compile-time half: standard-path.test-d.ts).
import { type } from 'arktype';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileFixtures, type FixtureDiagnostics } from '../../../config/test/type-diagnostics';
import { type AnyObjectSchema, BaseApp, Endpoint, Resource, Struct } from '../src/index';
import { clientFactory, memoryLogger } from './fixtures';
import { expectWiringError } from './expect-wiring-error';

const client = clientFactory();

class ZodRaise extends Endpoint('/zod/raise/{what}/{n}') {
  get = this.operation(
    { path: z.object({ what: z.string().min(2), n: z.coerce.number().int() }), returns: z.unknown() },
    ({ path }) => ({ what: path.what, n: path.n }),
  );
}
class ArkRaise extends Endpoint('/ark/raise/{what}/{n}') {
  get = this.operation(
    { path: type({ what: 'string >= 2', n: 'number.integer' }), returns: type('unknown') },
    ({ path }) => ({ what: path.what, n: path.n }),
  );
}
class ValibotRaise extends Endpoint('/valibot/raise/{what}/{n}') {
  get = this.operation(
    {
      path: Struct('RaisePath', {
        what: v.pipe(v.string(), v.minLength(2)),
        n: v.pipe(v.number(), v.integer()),
      }),
      returns: v.unknown(),
    },
    ({ path }) => ({ what: path.what, n: path.n }),
  );
}
/** create and readMany answer on the mount path: their path fields are its slots. */
class ZodShopItems extends Resource('/zod/shops/{shop_id}/items') {
  create = this.operation(
    { path: z.object({ shop_id: z.string() }), returns: z.unknown() },
    ({ path }) => path,
  );
  readMany = this.operation({ path: type({ shop_id: 'string' }), returns: type('unknown') }, ({ path }) => [
    path,
  ]);
  readOne = this.operation(
    { path: z.object({ shop_id: z.string(), item_id: z.coerce.number() }), returns: z.unknown() },
    ({ path }) => path,
  );
}

class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new ZodRaise());
    this.includeEndpoint(new ArkRaise());
    this.includeEndpoint(new ValibotRaise());
    this.includeResource(new ZodShopItems());
  }
}
const app = (): App => new App({ logger: memoryLogger() });

/** Status, content-type and body of one request. */
async function answer(
  c: ReturnType<typeof client>,
  path: string,
): Promise<[number, string | undefined, string]> {
  const res = await c.get(path);
  return [res.status, res.headers.get('content-type'), res.text];
}

describe('an exact path whose fields are its slots', () => {
  it('binds zod and ArkType slots as valibot binds them (coerced, percent-decoded)', async () => {
    const c = client(app());
    for (const lib of ['zod', 'ark', 'valibot']) {
      expect(await answer(c, `/${lib}/raise/teapot/12`), lib).toEqual([
        200,
        'application/json',
        '{"what":"teapot","n":12}',
      ]);
      expect(await answer(c, `/${lib}/raise/a%20b/-3`), lib).toEqual([
        200,
        'application/json',
        '{"what":"a b","n":-3}',
      ]);
    }
  });

  it('answers a slot value the schema refuses as valibot does: a bare 404 naming no value', async () => {
    const c = client(app());
    const notFound = await answer(c, '/valibot/raise/teapot/abc');
    expect(notFound[0]).toBe(404);
    expect(notFound[2]).not.toContain('abc');
    // `abc` is no number (z.coerce.number() makes NaN of it), 1.5 no integer, `x` too short, `%zz` no encoding.
    for (const bad of ['teapot/abc', 'teapot/1.5', 'x/1', '%zz/1', 'teapot/%zz'])
      for (const lib of ['zod', 'ark', 'valibot'])
        expect(await answer(c, `/${lib}/raise/${bad}`), `${lib} ${bad}`).toEqual(notFound);
  });

  it('serves create and readMany on a Resource mount path with slots, and an item field beyond them', async () => {
    const c = client(app());
    const created = await c.post('/zod/shops/s1/items', { json: {} });
    expect([created.status, created.text]).toEqual([201, '{"shop_id":"s1"}']);
    const many = await c.get('/zod/shops/s1/items');
    expect([many.status, many.text]).toEqual([200, '[{"shop_id":"s1"}]']);
    const one = await c.get('/zod/shops/s1/items/7');
    expect([one.status, one.text]).toEqual([200, '{"shop_id":"s1","item_id":7}']);
    expect((await c.get('/zod/shops/s1/items/abc')).status).toBe(404);
  });
});

describe('wiring: the path rules at run time (a JavaScript caller, or a cast)', () => {
  /** The WiringError starting an app with `route` mounted throws. */
  const startWith = (route: object, kind: 'resource' | 'endpoint'): Promise<unknown> => {
    class W extends BaseApp {
      protected override async wire(): Promise<void> {
        if (kind === 'resource') this.includeResource(route);
        else this.includeEndpoint(route);
      }
    }
    return new W({ logger: memoryLogger() }).start().then(
      () => undefined,
      (e: unknown) => e,
    );
  };
  /**
   * Each library's path schema for `fields` (all strings; `optional` ones optional), typed as any
   * object schema: the compile-time rules cannot see its fields, so the run-time ones answer.
   */
  const schemas = (
    fields: readonly string[],
    optional: readonly string[] = [],
  ): Record<'zod' | 'ark' | 'valibot', AnyObjectSchema> => {
    const entries = <T>(field: T, optionalField: T): Record<string, T> =>
      Object.fromEntries(fields.map((f) => [f, optional.includes(f) ? optionalField : field]));
    return {
      zod: z.object(entries<z.ZodType>(z.string(), z.string().optional())),
      // ArkType checks a definition's literal keys; a built one passes as some one-field object.
      ark: type(
        Object.fromEntries(fields.map((f) => [optional.includes(f) ? `${f}?` : f, 'string'])) as {
          x: 'string';
        },
      ),
      valibot: Struct('P', entries<v.GenericSchema>(v.string(), v.optional(v.string()))),
    };
  };

  /** The problem and fix each library's path schema gets, which must be valibot's. */
  async function sameError(
    build: (path: AnyObjectSchema) => { route: object; kind: 'resource' | 'endpoint' },
    paths: Record<string, AnyObjectSchema>,
    where: RegExp,
  ): Promise<string> {
    const messages: Record<string, string> = {};
    for (const [lib, path] of Object.entries(paths)) {
      const { route, kind } = build(path);
      const error = expectWiringError(await startWith(route, kind), 'API_WIRING_PATH_BINDING', where);
      messages[lib] = `${error.problem}. Fix: ${error.fix}.`;
    }
    expect(messages.zod).toBe(messages.valibot);
    expect(messages.ark).toBe(messages.valibot);
    return messages.valibot!;
  }

  it('refuses a path field that is not a slot of an Endpoint, as for valibot', async () => {
    const message = await sameError(
      (path) => {
        class Extra extends Endpoint('/extra/{what}') {
          get = this.operation({ path }, () => undefined);
        }
        return { route: new Extra(), kind: 'endpoint' };
      },
      schemas(['what', 'other']),
      /Extra/,
    );
    expect(message).toBe(
      'path fields "other" are not slots of "/extra/{what}" (an Endpoint path is exact). ' +
        'Fix: remove them, or move the operation to an item operation / a path with those slots.',
    );
  });

  it('refuses a path field that is not a slot of a readMany mount path, as for valibot', async () => {
    const message = await sameError(
      (path) => {
        class Extra extends Resource('/shops/{shop_id}/things') {
          readMany = this.operation({ path }, () => undefined);
        }
        return { route: new Extra(), kind: 'resource' };
      },
      schemas(['shop_id', 'thing_id']),
      /Extra/,
    );
    expect(message).toContain('path fields "thing_id" are not slots of "/shops/{shop_id}/things"');
  });

  it('refuses a mount slot without a path field, as for valibot', async () => {
    const message = await sameError(
      (path) => {
        class Missing extends Endpoint('/missing/{what}') {
          get = this.operation({ path }, () => undefined);
        }
        return { route: new Missing(), kind: 'endpoint' };
      },
      schemas(['other']),
      /Missing/,
    );
    expect(message).toBe(
      'mount path "/missing/{what}" has slot "{what}" but the path schema has no field "what". ' +
        'Fix: add "what" to the path Struct.',
    );
  });

  it('refuses an optional slot field (the same code; the words are each binder’s)', async () => {
    for (const path of Object.values(schemas(['what'], ['what']))) {
      class Optional extends Endpoint('/optional/{what}') {
        get = this.operation({ path }, () => undefined);
      }
      expectWiringError(await startWith(new Optional(), 'endpoint'), 'API_WIRING_PATH_BINDING', /Optional/);
    }
  });
});

/** One fixture per library and mistake: the same code but for the path schema. */
const HEAD = `import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { type AnyObjectSchema, BaseApp, Endpoint, Resource, Struct } from '../src/index';
`;
const PATHS: Record<string, (fields: string) => string> = {
  valibot: (f) => `Struct('P', { ${f.replace(/(\w+)/g, '$1: v.string()')} })`,
  zod: (f) => `z.object({ ${f.replace(/(\w+)/g, '$1: z.string()')} })`,
  ark: (f) => `type({ ${f.replace(/(\w+)/g, "$1: 'string'")} })`,
};
/** Each library's optional slot field. */
const OPTIONAL: Record<string, string> = {
  valibot: `Struct('P', { what: v.optional(v.string()) })`,
  zod: `z.object({ what: z.string().optional() })`,
  ark: `type({ 'what?': 'string' })`,
};
const MISTAKES: Record<string, (path: (fields: string) => string) => string> = {
  'endpoint-extra': (p) => `class Raise extends Endpoint('/raise/{what}') {
  get = this.operation({ path: ${p('what, other')} }, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeEndpoint(new Raise()); }
}`,
  'read-many-extra': (p) => `class Things extends Resource('/shops/{shop_id}/things') {
  readMany = this.operation({ path: ${p('shop_id, thing_id')} }, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeResource(new Things()); }
}`,
  'missing-slot': (p) => `export class Raise extends Endpoint('/raise/{what}') {
  get = this.operation({ path: ${p('other')} }, () => undefined);
}`,
  accepted: (p) => `class Raise extends Endpoint('/raise/{what}') {
  get = this.operation({ path: ${p('what')} }, () => undefined);
}
class Things extends Resource('/shops/{shop_id}/things') {
  create = this.operation({ path: ${p('shop_id')} }, () => undefined);
  readOne = this.operation({ path: ${p('shop_id, thing_id')} }, () => undefined);
}
export class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Raise());
    this.includeResource(new Things());
  }
}`,
};

describe('what tsc prints for a zod or ArkType path schema', () => {
  let diagnostics: FixtureDiagnostics;
  beforeAll(() => {
    diagnostics = compileFixtures(
      new URL('..', import.meta.url),
      Object.entries(MISTAKES)
        .flatMap(([mistake, source]) =>
          Object.entries(PATHS).map(([lib, path]) => ({
            name: `standard-path-${mistake}-${lib}`,
            source: `${HEAD}${source(path)}\n`,
          })),
        )
        .concat(
          Object.entries(OPTIONAL).map(([lib, path]) => ({
            name: `standard-path-optional-${lib}`,
            source: `${HEAD}export class Raise extends Endpoint('/raise/{what}') {
  get = this.operation({ path: ${path} }, () => undefined);
}
`,
          })),
        ),
    );
  }, 180_000);
  const of = (mistake: string, lib: string): readonly string[] =>
    diagnostics[`standard-path-${mistake}-${lib}`]!;

  it('accepts path fields that are slots, for each library', () => {
    for (const lib of Object.keys(PATHS)) expect(of('accepted', lib), lib).toEqual([]);
  });

  it('prints valibot’s words for a field that is not a slot of an exact path, and a slot without a field', () => {
    expect(of('endpoint-extra', 'valibot')).toHaveLength(1);
    expect(of('endpoint-extra', 'valibot')[0]!.split('\n')[0]).toBe(
      `Argument of type 'Raise' is not assignable to parameter of type 'Raise & WiringTypeError<"@api: an Endpoint path is exact, so every path field must be a {slot} of it. Fix: remove the other path fields or add them to the path as {slots} (a Resource with item operations is mounted with includeResource).">' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.`,
    );
    expect(of('read-many-extra', 'valibot')[0]).toContain(
      '"@api: create and readMany answer on the mount path itself, so their path fields must all be {slots} of it.',
    );
    expect(of('missing-slot', 'valibot')).toHaveLength(1);
    expect(of('missing-slot', 'valibot')[0]).toContain(
      '@api: the path schema has no field for the mount path slot {what}. Fix: add what to the path Struct.',
    );
    for (const mistake of ['endpoint-extra', 'read-many-extra', 'missing-slot'])
      for (const lib of ['zod', 'ark'])
        expect(of(mistake, lib), `${mistake} ${lib}`).toEqual(of(mistake, 'valibot'));
  });

  it('prints valibot’s optional-field rule for zod and ArkType, its fix naming each library’s way', () => {
    for (const lib of Object.keys(OPTIONAL)) {
      const errors = diagnostics[`standard-path-optional-${lib}`]!;
      expect(errors, lib).toHaveLength(1);
      expect(errors[0], lib).toContain(
        '@api: path field what is optional or has a default, but a matched path always carries its value. ' +
          'Fix: declare what without v.optional, v.nullish or a default ' +
          "(zod: .optional(), .nullish(), .default(); ArkType: 'what?' or a default).",
      );
    }
  });
});
