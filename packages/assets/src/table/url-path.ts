/**
 * The URL path of a file: the prefix plus each segment of its relative path, percent-encoded the
 * way a browser encodes a path (the WHATWG path percent-encode set: controls, space, `"`, `#`,
 * `<`, `>`, `?`, `` ` ``, `{`, `}`, non-ASCII as UTF-8), and `%` and `\` as well so that every
 * file name maps to exactly one route. Braces never become route slots: `{id}.txt` is served at
 * `…/%7Bid%7D.txt` (what browsers send) and, as a literal route, at `…/{id}.txt` (see `rawPath`).
 *
 * @param prefix the URL prefix without a trailing slash (`''` for the root)
 * @param relative the file's `/`-separated path relative to the served directory
 *
 * @example
 * routePath('/assets', 'img/{id} 1.svg'); // '/assets/img/%7Bid%7D%201.svg'
 */
export function routePath(prefix: string, relative: string): string {
  let out = prefix;
  for (const segment of relative.split('/')) out += '/' + encodeSegment(segment);
  return out;
}

/**
 * The URL path a client that does not percent-encode sends for the same file (curl -g, node:http,
 * raw sockets): like `routePath`, but `{`, `}`, `"`, `<`, `>` and `` ` `` stay as they are — the
 * characters an HTTP parser accepts raw in a request target that mean nothing else in a URL. `%`,
 * `\`, `?`, `#`, space, controls and non-ASCII stay encoded (they would be ambiguous or refused).
 * Equal to `routePath` for most files; assets adds it as a second, literal route when it differs.
 *
 * @param prefix the URL prefix without a trailing slash (`''` for the root)
 * @param relative the file's `/`-separated path relative to the served directory
 *
 * @example
 * rawPath('/assets', '{locale}/a.css'); // '/assets/{locale}/a.css'
 */
export function rawPath(prefix: string, relative: string): string {
  let out = prefix;
  for (const segment of relative.split('/')) out += '/' + encodeSegment(segment, KEEP_RAW);
  return out;
}

/** ASCII characters kept as they are: printable, minus `"#<>?\`{}%\\` (and space). */
const KEEP = new Set("!$&'()*+,-./0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_abcdefghijklmnopqrstuvwxyz|~");
/** `KEEP` plus what a non-encoding client sends raw: `{`, `}`, `"`, `<`, `>`, `` ` ``. */
const KEEP_RAW = new Set([...KEEP, '{', '}', '"', '<', '>', '`']);

function encodeSegment(segment: string, keep: ReadonlySet<string> = KEEP): string {
  let out = '';
  for (const c of segment) {
    if (keep.has(c)) out += c;
    else
      for (const byte of Buffer.from(c, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
