// Prefix routes (a handler owning every path under a prefix, e.g. a mounted fetch handler): the
// router consults them only when no exact or templated route has the path, so an app without
// prefixes never reaches this file.
import { wiringError } from '../contract/wiring-error';
import { allowHeader, type PathEntry } from './router';
import { normalizePercentEncoding } from './normalize-path';

/** The methods key of a prefix route that answers every method. */
export const ANY_METHOD = '*';

/**
 * Checks a prefix as `addPrefixRoute` takes it: `/` alone, or `/` and segments of printable
 * ASCII without `{}`, `?`, `#` or an empty segment (so no trailing `/`).
 */
export function checkPrefix(where: string, prefix: unknown): string {
  const shown = typeof prefix === 'string' ? JSON.stringify(prefix) : String(prefix);
  if (typeof prefix !== 'string' || !prefix.startsWith('/'))
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      where,
      `the prefix must be a path starting with "/", got ${shown}`,
      "e.g. prefix '/api/auth'",
    );
  if (prefix === '/') return prefix;
  const bad = /[^\x21-\x7e]|[?#{}]/.exec(prefix);
  if (bad)
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      where,
      `prefix ${shown} has ${JSON.stringify(bad[0])}; a prefix is a literal path (no slots), ` +
        'as a request target carries it',
      'percent-encode it, and put no {slot} in a prefix',
    );
  if (prefix.endsWith('/') || prefix.includes('//'))
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      where,
      `prefix ${shown} has an empty segment (a trailing or doubled "/")`,
      `write it as ${JSON.stringify(prefix.replace(/\/+/g, '/').replace(/\/$/, '') || '/')}`,
    );
  return prefix.includes('%') ? normalizePercentEncoding(prefix) : prefix;
}

/** True when one prefix owns paths of the other (equal, or one is a whole-segment prefix of the other). */
function overlaps(a: string, b: string): boolean {
  if (a === '/' || b === '/' || a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.startsWith(short) && long.charCodeAt(short.length) === 47;
}

/**
 * The prefix routes of one router: by prefix, each a path entry whose methods map holds one plan
 * per method (or one under `*` for every method). Prefixes never overlap (checked when added), so
 * at most one owns a path: the lookup tries the path's own prefixes, longest first.
 */
export class PrefixTable<R> {
  readonly #byPrefix = new Map<string, PathEntry<R>>();
  /** Who added each prefix, for the overlap error. */
  readonly #owners = new Map<string, string>();

  /** Adds one method (or `*`) of a prefix route; an overlapping prefix of another owner fails. */
  add(prefix: string, method: string, route: R, owner: string): void {
    let entry = this.#byPrefix.get(prefix);
    if (entry === undefined) {
      for (const [other, otherOwner] of this.#owners)
        if (overlaps(prefix, other))
          throw wiringError(
            'API_WIRING_PREFIX_OVERLAP',
            owner,
            `prefix "${prefix}" overlaps prefix "${other}" of ${otherOwner}` +
              (prefix === other ? '' : ': one would own paths of the other'),
            'mount each handler under its own prefix, with neither inside the other',
          );
      entry = { template: prefix, methods: new Map(), allow: '' };
      this.#byPrefix.set(prefix, entry);
      this.#owners.set(prefix, owner);
    } else if (this.#owners.get(prefix) !== owner || entry.methods.has(method) || method === ANY_METHOD)
      throw wiringError(
        'API_WIRING_PREFIX_OVERLAP',
        owner,
        `prefix "${prefix}" is already mounted by ${this.#owners.get(prefix)!}`,
        'mount each handler under its own prefix',
      );
    entry.methods.set(method, route);
    // An every-method route never answers 405; a listed one's automatic OPTIONS names them.
    entry.allow = method === ANY_METHOD ? '' : allowHeader(entry.methods.keys());
  }

  /** Whether any prefix route was added. */
  get size(): number {
    return this.#byPrefix.size;
  }

  /** The entry of the prefix owning a normalized `path`, if any. */
  find(path: string): PathEntry<R> | undefined {
    const table = this.#byPrefix;
    let end = path.length;
    for (;;) {
      const entry = table.get(end === path.length ? path : path.slice(0, end));
      if (entry !== undefined) return entry;
      if (end <= 1) return undefined;
      end = path.lastIndexOf('/', end - 1);
      if (end <= 0) return table.get('/');
    }
  }
}

/** The route of a prefix entry for a method: its own, else the every-method one (HEAD falls back to GET). */
export function pickPrefix<R>(entry: PathEntry<R>, method: string): R | undefined {
  const methods = entry.methods;
  return (
    methods.get(method) ?? (method === 'HEAD' ? methods.get('GET') : undefined) ?? methods.get(ANY_METHOD)
  );
}
