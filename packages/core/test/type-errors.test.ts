// The wiring mistakes tsc rejects say the rule and the fix: each fixture below is compiled (one
// TypeScript program for all of them, with core's tsconfig) and its error text must carry the
// `@api:` message, a `Fix:`, and nothing tsc had to escape (ASCII only: an en dash prints as \u2013).
import { beforeAll, describe, expect, it } from 'vitest';
import { compileFixtures, type FixtureDiagnostics } from '../../../config/test/type-diagnostics';

const HEAD = `import * as v from 'valibot';
import { BaseApp, Endpoint, ExceptionResponse, Resource, Struct } from '../src/index';
const WidgetPath = Struct('WidgetPath', { widget_id: v.string() });
`;

/**
 * Fixtures that must fail, each with the words its error must contain. `firstLine`: the whole first
 * line, pinned (a mount of the wrong kind: tsc names the class, then the rule; the
 * exactOptionalPropertyTypes hint at its end is tsc's own, as for every argument check). Every
 * other error leads with the rule within `LEAD` characters.
 */
const REJECTED: Record<
  string,
  { readonly source: string; readonly says: readonly string[]; readonly firstLine?: string }
> = {
  'missing-slot': {
    source: `class Parts extends Resource('/widgets/{widget_id}/parts') {
  readMany = this.operation({ path: Struct('P', { other: v.string() }) }, () => undefined);
}`,
    says: [
      '@api: the path schema has no field for the mount path slot {widget_id}',
      'Fix: add widget_id to the path Struct',
    ],
  },
  'defaulted-path-field': {
    source: `class Widgets extends Resource('/widgets') {
  readOne = this.operation({ path: Struct('P', { widget_id: v.optional(v.string(), 'x') }) }, () => undefined);
}`,
    says: [
      '@api: path field widget_id is optional or has a default',
      'Fix: declare widget_id without v.optional',
    ],
  },
  'snake-case-slot': {
    source: `void Endpoint('/widgets/{widgetId}');`,
    says: ['@api: path slots are snake_case, and {widgetId} is not', 'Fix: name slots like {widget_id}'],
  },
  // Other routers' path syntax would be literal text: named, with the {slot} form.
  'express-param': {
    source: `void Resource('/books/:id');`,
    says: [
      `@api: segment :id is another router's path syntax, which @api would serve as literal text`,
      'Fix: write path parameters as {slots}, e.g. {id}',
    ],
  },
  'wildcard-path': {
    source: `void Endpoint('/files/*');`,
    says: [`@api: segment * is another router's path syntax`, 'Fix: write path parameters as {slots}'],
  },
  'optional-slot': {
    source: `void Endpoint('/books/{id?}');`,
    says: [`@api: segment {id?} is another router's path syntax`, 'e.g. {id}'],
  },
  'exact-resource-operation': {
    source: `class Widgets extends Resource('/widgets') {
  readMany = this.operation({ path: WidgetPath }, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeResource(new Widgets()); }
}`,
    says: [
      '@api: create and readMany answer on the mount path itself',
      'Fix: remove the other path fields, or declare an item operation',
    ],
    firstLine: `Argument of type 'Widgets' is not assignable to parameter of type 'Widgets & WiringTypeError<"@api: create and readMany answer on the mount path itself, so their path fields must all be {slots} of it. Fix: remove the other path fields, or declare an item operation (readOne, updateFull, updatePartial, delete).">' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.`,
  },
  'exact-endpoint': {
    source: `class Health extends Endpoint('/healthz') {
  get = this.operation({ path: WidgetPath }, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeEndpoint(new Health()); }
}`,
    says: [
      '@api: an Endpoint path is exact',
      'Fix: remove the other path fields or add them to the path as {slots}',
    ],
    firstLine: `Argument of type 'Health' is not assignable to parameter of type 'Health & WiringTypeError<"@api: an Endpoint path is exact, so every path field must be a {slot} of it. Fix: remove the other path fields or add them to the path as {slots} (a Resource with item operations is mounted with includeResource).">' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.`,
  },
  'endpoint-mounted-as-resource': {
    source: `class Remove extends Endpoint('/remove') {
  delete = this.operation({}, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeResource(new Remove()); }
}`,
    says: [
      '@api: delete is an Endpoint operation, and includeResource mounts a Resource. Fix: mount its class with includeEndpoint.',
    ],
    firstLine: `Argument of type 'Remove' is not assignable to parameter of type 'Remove & WiringTypeError<"@api: delete is an Endpoint operation, and includeResource mounts a Resource. Fix: mount its class with includeEndpoint.">' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.`,
  },
  'resource-mounted-as-endpoint': {
    source: `class Items extends Resource('/items') {
  delete = this.operation({ path: WidgetPath }, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeEndpoint(new Items()); }
}`,
    says: [
      '@api: an Endpoint path is exact',
      'a Resource with item operations is mounted with includeResource',
    ],
    firstLine: `Argument of type 'Items' is not assignable to parameter of type 'Items & WiringTypeError<"@api: an Endpoint path is exact, so every path field must be a {slot} of it. Fix: remove the other path fields or add them to the path as {slots} (a Resource with item operations is mounted with includeResource).">' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.`,
  },
  'no-operation': {
    source: `class Empty extends Resource('/empty') {
  other = 1;
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeResource(new Empty()); }
}`,
    says: [
      '@api: this class declares no Resource operation (create, readMany, readOne, updateFull, updatePartial, delete)',
      'Fix: declare one with this.operation, or mount an Endpoint with includeEndpoint.',
    ],
  },
  'exception-status': {
    source: `void new ExceptionResponse({ statusCode: 302, json: {} });`,
    says: ['@api: 302 is not an error status', '(400-599). Fix: use an error status, e.g. 409 or 503.'],
  },
  'exception-of-status': {
    source: `void ExceptionResponse.of(WidgetPath, { status: 200 });`,
    says: ['@api: 200 is not an error status', 'Fix: use an error status'],
  },
  // A package's requirement (declared here by merging, as @api/auth does for `auth`): leaving the
  // options out names its rule and fix instead of "Expected 2 arguments, but got 1".
  'requirement-omitted': {
    source: `class Flagged extends Endpoint('/flagged') {
  readonly needsFlag = true;
  get = this.operation({}, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeEndpoint(new Flagged()); }
}`,
    says: ['@api: this route is flagged, so its mount needs flag. Fix: mount it with { flag: true }.'],
  },
  'requirement-omitted-without-message': {
    source: `class Tagged extends Endpoint('/tagged') {
  readonly needsTag = true;
  get = this.operation({}, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeEndpoint(new Tagged()); }
}`,
    says: [
      '@api: this route needs the mount options tag. Fix: pass them as the second argument of the mount.',
    ],
  },
  'requirement-empty-options': {
    source: `class Flagged extends Endpoint('/flagged2') {
  readonly needsFlag = true;
  get = this.operation({}, () => undefined);
}
class App extends BaseApp {
  protected override async wire(): Promise<void> { this.includeEndpoint(new Flagged(), { middleware: [] }); }
}`,
    says: ["Property 'flag' is missing", '@api: this route is flagged, so its mount needs flag'],
  },
};

/**
 * A misspelled operation name in `Location.fromOperation` / `Link.fromOperation` inside the class
 * that declares it: tsc's own error alone (it once came after two "implicitly has type 'any'"
 * errors, TS7022/TS7024, as the class's members were read while being declared).
 */
const MISSPELLED: Record<string, string> = {
  'location-typo': `const Item = Struct('Item', { id: v.string() });
class Items extends Resource('/items') {
  create = this.operation({ json: Item, returns: Created.of(Item) }, ({ json }) => {
    const location = Location.fromOperation(Items, 'readOen', { path: { widget_id: json.id } });
    return new Created({ json, location });
  });
  readOne = this.operation({ path: WidgetPath, returns: Item }, () => ({ id: '1' }));
}`,
  'link-typo': `const Item = Struct('Item', { id: v.string() });
class Items extends Resource('/items') {
  create = this.operation({ json: Item, returns: Created.of(Item) }, ({ json }) => {
    const links = Link.fromOperation(Items, 'readOen', { rel: 'self', path: { widget_id: json.id } });
    return new Created({ json, links });
  });
  readOne = this.operation({ path: WidgetPath, returns: Item }, () => ({ id: '1' }));
}`,
};

/** The requirement registry entries the fixtures above use (merged into core's interface). */
const REGISTRY = {
  name: 'registry',
  source: `import type { MountRequirement } from '../src/index';
declare module '../src/index' {
  interface MountRequirementRegistry<TRoute extends object> {
    flag: TRoute extends { readonly needsFlag: true }
      ? MountRequirement<'@api: this route is flagged, so its mount needs flag. Fix: mount it with { flag: true }.', { readonly flag: true }>
      : unknown;
    tag: TRoute extends { readonly needsTag: true } ? { readonly tag: string } : unknown;
  }
}
`,
};

/** What must keep compiling: satisfied requirements, optional options, a route typed `object`. */
const ACCEPTED = `${HEAD}class Flagged extends Endpoint('/ok-flagged') {
  readonly needsFlag = true;
  get = this.operation({}, () => undefined);
}
class Plain extends Endpoint('/ok-plain') {
  get = this.operation({ path: Struct('Empty', {}) }, () => undefined);
}
class Widgets extends Resource('/ok-widgets') {
  readOne = this.operation({ path: WidgetPath }, () => undefined);
}
export class App extends BaseApp {
  protected override async wire(): Promise<void> {
    this.includeEndpoint(new Flagged(), { flag: true });
    this.includeEndpoint(new Plain());
    this.includeEndpoint(new Plain(), { middleware: [] });
    this.includeEndpoint(new Plain(), undefined);
    this.includeResource(new Widgets(), { limits: { maxBodyBytes: 10 } });
    const route: object = new Plain();
    this.includeEndpoint(route);
    this.includeEndpoint(route, {});
  }
}
void new ExceptionResponse({ statusCode: 409, json: {} });
`;

/**
 * The most text tsc may print before the rule on a diagnostic's first line: its own fixed words
 * ("Object literal may only specify known properties, and 'path' does not exist in type
 * 'WiringTypeError<") and a short name, never a schema's whole type.
 */
const LEAD = 120;

let diagnostics: FixtureDiagnostics;
beforeAll(() => {
  diagnostics = compileFixtures(new URL('..', import.meta.url), [
    REGISTRY,
    { name: 'accepted', source: ACCEPTED },
    ...Object.entries(REJECTED).map(([name, f]) => ({ name, source: `${HEAD}${f.source}\n` })),
    ...Object.entries(MISSPELLED).map(([name, source]) => ({
      name,
      source: `${HEAD.replace('Endpoint,', 'Created, Endpoint,').replace('Resource,', 'Link, Location, Resource,')}${source}\n`,
    })),
  ]);
}, 120_000);

describe('type errors that say what to do', () => {
  it('compiles the accepted wirings without a diagnostic', () => {
    expect(diagnostics.registry).toEqual([]);
    expect(diagnostics.accepted).toEqual([]);
  });

  for (const [name, { says, firstLine }] of Object.entries(REJECTED)) {
    it(`${name}: one error, with the rule and the fix, in ASCII`, () => {
      const errors = diagnostics[name]!;
      expect(errors).toHaveLength(1);
      const text = errors[0]!;
      for (const words of says) expect(text).toContain(words);
      expect(text).toContain('@api: ');
      expect(text).toMatch(/Fix: |includeEndpoint\)|includeResource\)/);
      expect(text).not.toMatch(/\\u[0-9a-f]{4}|[^\x20-\x7e\n]/i);
      expect(text).not.toContain("not assignable to type 'never'");
      expect(text).not.toContain('Expected 2 arguments');
    });

    it(`${name}: the first line leads with the rule (no type dump before it)`, () => {
      const first = diagnostics[name]![0]!.split('\n')[0]!;
      if (firstLine !== undefined) expect(first).toBe(firstLine);
      const at = first.search(/@api: |"@api: /);
      expect(at, first).toBeGreaterThanOrEqual(0);
      expect(first.slice(0, at).length, first).toBeLessThanOrEqual(LEAD);
    });
  }
});

describe('a misspelled operation name inside the class that declares it', () => {
  for (const name of Object.keys(MISSPELLED))
    it(`${name}: one error, the name's`, () => {
      expect(diagnostics[name]).toEqual([
        'Argument of type \'"readOen"\' is not assignable to parameter of type \'"create" | "readOne"\'.',
      ]);
    });
});
