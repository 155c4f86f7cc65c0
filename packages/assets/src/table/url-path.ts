/**
 * The URL path of a file: the prefix plus each segment of its relative path, percent-encoded the
 * way a browser encodes a path (the WHATWG path percent-encode set: controls, space, `"`, `#`,
 * `<`, `>`, `?`, `` ` ``, `{`, `}`, non-ASCII as UTF-8), and `%` and `\` as well so that every
 * file name maps to exactly one route. Braces are therefore literal: `{id}.txt` is served at
 * `…/%7Bid%7D.txt` and never becomes a route slot.
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

/** ASCII characters kept as they are: printable, minus `"#<>?\`{}%\\` (and space). */
const KEEP = new Set("!$&'()*+,-./0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_abcdefghijklmnopqrstuvwxyz|~");

function encodeSegment(segment: string): string {
  let out = '';
  for (const c of segment) {
    if (KEEP.has(c)) out += c;
    else
      for (const byte of Buffer.from(c, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
