// Path syntaxes of other routers (Express, Fastify, Hono, Starlette, Flask, Next.js) that @api
// would otherwise take as literal text: `/books/:id` would serve the path `/books/:id` and answer
// 404 for `/books/42`. Each is refused, at run time here and (where tsc can see the literal) by
// `PeerPathSyntax`, naming the `{slot}` form.
import type { TypeErrorMessage, WiringTypeError } from '../contract/type-errors';

/** What is wrong with one segment, and how to write it with `{slots}`. */
export interface PeerSyntax {
  readonly problem: string;
  readonly fix: string;
}

/** `bookId` → `book_id`, `book-id` → `book_id`: the slot name a peer's parameter becomes. */
export function snakeName(name: string): string {
  const snake = name
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/^_+|_+$/g, '');
  return /^[a-z_]/.test(snake) ? snake : `_${snake}`;
}

/**
 * The peer syntax one path segment uses, or undefined for an @api segment (text or `{slot}`).
 *
 * @param segment - One segment of a path template, without its slashes.
 */
export function peerSyntax(segment: string): PeerSyntax | undefined {
  const colon = /^:([A-Za-z_][\w-]*)(\?|\*|\+|\(.*\)|\{.*\})?$/.exec(segment);
  if (colon) {
    const slot = `{${snakeName(colon[1]!)}}`;
    return {
      problem:
        `segment "${segment}" is Express/Fastify/Hono parameter syntax, which @api would take ` +
        'as literal text (the route would never match)',
      fix:
        `write the parameter as a slot: "${slot}"` +
        (colon[2] === '?' ? ', and declare a second route without it for the optional case' : '') +
        (colon[2] !== undefined && colon[2] !== '?'
          ? ' (a slot is one whole segment; constrain its value in the path Struct)'
          : ''),
    };
  }
  if (segment.includes('*'))
    return {
      problem: `segment "${segment}" is a wildcard, which @api does not have (it would be literal text)`,
      fix: 'a slot matches one whole segment, e.g. "/files/{file_name}"; for a tree of files use @api/assets',
    };
  const optional = /^\{([^}]*)\?\}$/.exec(segment);
  if (optional)
    return {
      problem: `slot "${segment}" is optional, and @api slots are always present`,
      fix: `write "{${snakeName(optional[1]!)}}" and declare a second route without the segment`,
    };
  const typed = /^\{([A-Za-z_][\w-]*)[:=](.*)\}$/.exec(segment);
  if (typed)
    return {
      problem: `slot "${segment}" carries a converter or pattern, which @api does not read`,
      fix:
        `write "{${snakeName(typed[1]!)}}" and declare its type in the path Struct, ` +
        'e.g. v.pipe(v.string(), v.regex(…))',
    };
  const spread = /^\{(?:\*|\.\.\.)(.+)\}$/.exec(segment);
  const bracket = /^\[(?:\.\.\.)?\[?(?:\.\.\.)?([^\]]+)\]?\]$/.exec(segment);
  const angle = /^<(?:[a-z]+:)?([^>]+)>$/.exec(segment);
  const name = spread?.[1] ?? bracket?.[1] ?? angle?.[1];
  if (name !== undefined)
    return {
      problem:
        `segment "${segment}" is another router's parameter syntax, which @api would take as ` +
        'literal text (the route would never match)',
      fix: `write the parameter as a slot: "{${snakeName(name)}}" (one whole segment)`,
    };
  return undefined;
}

type Segments<TPath extends string> = TPath extends `${infer Head}/${infer Rest}`
  ? Head | Segments<Rest>
  : TPath;

type PeerSegment<S extends string> = S extends `:${string}`
  ? S
  : S extends `${string}*${string}`
    ? S
    : S extends `{${string}?}` | `{${string}:${string}}` | `<${string}>` | `[${string}]` | `{...${string}}`
      ? S
      : never;

type PeerSlotName<S extends string> = S extends `:${infer N}?`
  ? N
  : S extends `:${infer N}`
    ? N
    : S extends `{${infer N}?}`
      ? N
      : S extends `{${infer N}:${string}}`
        ? N
        : S extends `<${infer N}>` | `[${infer N}]` | `{...${infer N}}`
          ? N
          : 'name';

/**
 * `unknown`, or the error tsc shows for a path written in another router's syntax (`/books/:id`,
 * `/files/*`, `{id?}`, `{id:int}`, `<id>`, `[id]`): the segment and the `{slot}` form.
 */
export type PeerPathSyntax<TPath extends string> = [PeerSegment<Segments<TPath>>] extends [never]
  ? unknown
  : WiringTypeError<
      TypeErrorMessage<
        [
          `segment ${PeerSegment<Segments<TPath>>} is another router's path syntax, `,
          'which @api would serve as literal text',
        ],
        [
          `write path parameters as {slots}, e.g. {${PeerSlotName<PeerSegment<Segments<TPath>>>}}; `,
          'a slot is one whole segment',
        ]
      >
    >;
