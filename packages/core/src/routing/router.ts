import { describeValue, type WiringError, wiringError } from '../contract/wiring-error';
import { normalizePercentEncoding } from './normalize-path';
import { peerSyntax } from './peer-syntax';

/** One path's routes, keyed by method, with its precomputed `Allow` header. */
export interface PathEntry<R> {
  readonly template: string;
  readonly methods: Map<string, R>;
  allow: string;
}

/** A lookup result: the path's entry and the raw (still percent-encoded) slot values. */
export interface Match<R> {
  readonly entry: PathEntry<R>;
  readonly route: R | undefined;
  readonly params: readonly string[];
}

interface TrieNode<R> {
  statics: Map<string, TrieNode<R>> | undefined;
  param: TrieNode<R> | undefined;
  entry: PathEntry<R> | undefined;
}

function newNode<R>(): TrieNode<R> {
  return { statics: undefined, param: undefined, entry: undefined };
}

/**
 * Splits a template into segments; `{name}` segments are slots. A malformed template is a
 * `WiringError` that starts with `where` (the mount's class, or the extension route) when given.
 *
 * @param template - A path template, e.g. `/widgets/{widget_id}`.
 * @param where - Who declared it, e.g. `App.includeResource(WidgetResource)`.
 */
export function parseTemplate(template: string, where?: string): { segments: string[]; slots: string[] } {
  if (typeof template !== 'string' || !template.startsWith('/')) {
    const shown = typeof template === 'string' ? JSON.stringify(template) : describeValue(template);
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      where === undefined ? `parseTemplate(${shown})` : `${where}: path ${shown}`,
      'expected a path template starting with "/"',
      'e.g. "/widgets/{widget_id}"',
    );
  }
  const at = where === undefined ? `path "${template}"` : `${where}: path "${template}"`;
  const segments = template.split('/').slice(1);
  const slots: string[] = [];
  for (const seg of segments) {
    const peer = peerSyntax(seg);
    if (peer) throw wiringError('API_WIRING_INVALID_PATH', at, peer.problem, peer.fix);
    if (seg.startsWith('{')) {
      if (!seg.endsWith('}') || seg.length < 3)
        throw wiringError(
          'API_WIRING_INVALID_PATH',
          at,
          `segment "${seg}" is not a valid ` +
            `{slot}${seg.endsWith('}') ? ' (the slot has no name)' : ' (the brace is not closed)'}`,
          'a slot fills a whole segment, e.g. "/widgets/{widget_id}"',
        );
      const name = seg.slice(1, -1);
      if (!/^[a-z_][a-z0-9_]*$/.test(name))
        throw wiringError(
          'API_WIRING_SLOT_NAME',
          at,
          `slot "{${name}}" is not snake_case`,
          'name slots like {widget_id}',
        );
      if (slots.includes(name))
        throw wiringError(
          'API_WIRING_DUPLICATE',
          at,
          `slot "{${name}}" appears twice`,
          'give each slot its own name',
        );
      slots.push(name);
    } else if (seg.includes('{') && seg.includes('}')) {
      throw wiringError(
        'API_WIRING_INVALID_PATH',
        at,
        `segment "${seg}" mixes text and a slot`,
        'a slot fills a whole segment',
      );
    } else if (seg.includes('{') || seg.includes('}')) {
      throw wiringError(
        'API_WIRING_INVALID_PATH',
        at,
        `segment "${seg}" has an unbalanced brace`,
        'a slot is a whole segment in braces, e.g. "/widgets/{widget_id}"',
      );
    }
  }
  return { segments, slots };
}

/** The `Allow` value of a path's methods: in order, then HEAD when GET is there, then OPTIONS. */
export function allowHeader(methods: Iterable<string>): string {
  const list = [...methods];
  if (list.includes('GET') && !list.includes('HEAD')) list.push('HEAD');
  if (!list.includes('OPTIONS')) list.push('OPTIONS');
  return list.join(', ');
}

/**
 * The router: static paths in one exact map; templated paths bucketed by segment count and
 * matched segment by segment on their static parts (a static segment is preferred over a slot;
 * the method is chosen at the end). No regular expressions, no scans of a route table, no
 * ordering rules.
 */
export class Router<R> {
  readonly #static = new Map<string, PathEntry<R>>();
  readonly #buckets = new Map<number, TrieNode<R>>();
  readonly #entries: PathEntry<R>[] = [];
  /**
   * Segment counts whose trie has a node with both static children and a slot: only those need
   * the backtracking walk (a static segment is preferred, the slot tried when it leads nowhere).
   */
  readonly #mixed = new Set<number>();

  /**
   * Adds a route; the same (method, template) twice is a `WiringError`. A `literal` path is stored
   * as an exact static path, without reading `{…}` as slots.
   */
  add(method: string, template: string, route: R, describe: (existing: R) => string, literal = false): void {
    const { slots } = literal ? { slots: [] } : parseTemplate(template);
    // Request paths are matched in normalized form (see normalizePercentEncoding); so are templates.
    const key = template.includes('%') ? normalizePercentEncoding(template) : template;
    const segments = key.split('/').slice(1);
    let entry: PathEntry<R> | undefined;
    if (slots.length === 0) {
      entry = this.#static.get(key);
      if (!entry) {
        entry = { template, methods: new Map(), allow: '' };
        this.#static.set(key, entry);
        this.#entries.push(entry);
      }
    } else {
      let node = this.#buckets.get(segments.length);
      if (!node) {
        node = newNode();
        this.#buckets.set(segments.length, node);
      }
      for (const seg of segments) {
        if (seg.startsWith('{')) {
          node.param ??= newNode();
          if (node.statics) this.#mixed.add(segments.length);
          node = node.param;
        } else {
          node.statics ??= new Map();
          if (node.param) this.#mixed.add(segments.length);
          let next = node.statics.get(seg);
          if (!next) {
            next = newNode();
            node.statics.set(seg, next);
          }
          node = next;
        }
      }
      if (node.entry && node.entry.template !== template) {
        // The same method on the same shape is a duplicate route (one error wherever it is seen);
        // another method is refused too: one path shape has one template.
        const existing = node.entry.methods.get(method);
        if (existing !== undefined)
          throw duplicateRouteError(
            describe(route),
            method,
            template,
            describe(existing),
            node.entry.template,
          );
        throw wiringError(
          'API_WIRING_PATH_SHAPE',
          describe(route),
          `path "${template}" has the same shape as "${node.entry.template}" (only slot names differ)`,
          'mount both under one template',
        );
      }
      entry = node.entry ??= { template, methods: new Map(), allow: '' };
      if (!this.#entries.includes(entry)) this.#entries.push(entry);
    }
    const existing = entry.methods.get(method);
    if (existing !== undefined) {
      // Reached only by an operation mounted after an extension route on its path (app-wiring.ts
      // defers that clash so the extension's contributors can name it first): same error as there.
      throw duplicateRouteError(describe(route), method, template, describe(existing), entry.template);
    }
    entry.methods.set(method, route);
    entry.allow = allowHeader(entry.methods.keys());
  }

  /** Every path entry, in registration order. */
  entries(): readonly PathEntry<R>[] {
    return this.#entries;
  }

  /**
   * The entry of a static path (no allocation: the hot path for exact routes). `path` is in
   * normalized form (`normalizePercentEncoding`), as the runtime hands it over.
   */
  findStatic(path: string): PathEntry<R> | undefined {
    return this.#static.get(path);
  }

  /** Finds the route for `method` at a normalized `path` (HEAD falls back to GET). */
  find(method: string, path: string): Match<R> | undefined {
    const entry = this.#static.get(path);
    if (entry !== undefined) return { entry, route: pick(entry, method), params: EMPTY };
    return this.#findTemplated(method, path);
  }

  #findTemplated(method: string, path: string): Match<R> | undefined {
    if (this.#buckets.size === 0) return undefined;
    // The bucket first, by counting slashes: a miss (every 404) allocates nothing.
    let count = 0;
    for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) count++;
    const root = this.#buckets.get(count);
    if (!root) return undefined;
    if (!this.#mixed.has(count)) return descend(root, method, path);
    // segments[0] is '' for a path starting with '/'
    const segments = path.split('/');
    const params: string[] = [];
    let fallback: Match<R> | undefined;
    const walk = (node: TrieNode<R>, i: number): Match<R> | undefined => {
      if (i === segments.length) {
        const entry = node.entry;
        if (!entry) return undefined;
        const route = pick(entry, method);
        const match = { entry, route, params: params.slice() };
        if (route !== undefined) return match;
        fallback ??= match;
        return undefined;
      }
      const seg = segments[i]!;
      const next = node.statics?.get(seg);
      if (next) {
        const found = walk(next, i + 1);
        if (found) return found;
      }
      if (node.param && seg.length > 0) {
        params.push(seg);
        const found = walk(node.param, i + 1);
        params.pop();
        if (found) return found;
      }
      return undefined;
    };
    return walk(root, 1) ?? fallback;
  }
}

const EMPTY: readonly string[] = Object.freeze([]);

/**
 * Matches `path` in a trie where no node has both static children and a slot: each segment has
 * at most one way on, so one pass decides, without splitting the path or backtracking.
 */
function descend<R>(root: TrieNode<R>, method: string, path: string): Match<R> | undefined {
  let node = root;
  let params: string[] | undefined;
  let start = 1;
  while (start <= path.length) {
    let end = path.indexOf('/', start);
    if (end < 0) end = path.length;
    const seg = path.slice(start, end);
    const next = node.statics?.get(seg);
    if (next !== undefined) node = next;
    else if (node.param !== undefined && seg.length > 0) {
      (params ??= []).push(seg);
      node = node.param;
    } else return undefined;
    start = end + 1;
  }
  const entry = node.entry;
  if (entry === undefined) return undefined;
  return { entry, route: pick(entry, method), params: params ?? EMPTY };
}

/** The route of an entry for a method; HEAD falls back to GET. */
export function pick<R>(entry: PathEntry<R>, method: string): R | undefined {
  const route = entry.methods.get(method);
  if (route !== undefined || method !== 'HEAD') return route;
  return entry.methods.get('GET');
}

/**
 * The one `WiringError` of a method and path answered twice, naming both registrants (the one
 * added and the one already there, with its path when only slot names tell them apart).
 */
export function duplicateRouteError(
  added: string,
  method: string,
  path: string,
  prior: string,
  priorPath: string,
): WiringError {
  const same = priorPath === path ? '' : ` (as ${priorPath})`;
  return wiringError(
    'API_WIRING_DUPLICATE_ROUTE',
    added,
    `${method} ${path} is already answered by ${prior}${same}`,
    'mount one of them at another path, split methods so each is answered once, ' +
      'or (in an extension) check wiring.hasRoute(method, path) before adding',
  );
}
