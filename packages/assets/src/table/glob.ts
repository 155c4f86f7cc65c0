/**
 * Compiles an `fnmatch` glob (Python's `fnmatch.fnmatchcase`) into a predicate over relative
 * paths: `*` matches any run of characters, `/` included; `?` any one character; `[seq]` one
 * character of the set, `[!seq]` one character not in it (ranges such as `a-z` allowed; a
 * reversed range matches nothing); a `[` without its `]` is literal. Matching is case-sensitive.
 *
 * @param glob the pattern, e.g. `css/*.css`
 * @returns a test for a `/`-separated path relative to the served directory
 *
 * @example
 * compileGlob('*.css')('css/site.css'); // true: `*` crosses `/`
 */
export function compileGlob(glob: string): (path: string) => boolean {
  const chars = [...glob];
  let source = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '*') {
      source += '.*';
    } else if (c === '?') {
      source += '.';
    } else if (c === '[') {
      let j = i + 1;
      if (chars[j] === '!') j++;
      if (chars[j] === ']') j++;
      while (j < chars.length && chars[j] !== ']') j++;
      if (j >= chars.length) {
        source += '\\[';
      } else {
        source += charClass(chars.slice(i + 1, j));
        i = j;
      }
    } else {
      source += escape(c);
    }
  }
  const regex = new RegExp(`^(?:${source})$`, 'su');
  return (path) => regex.test(path);
}

/** `[…]` contents (without the brackets) → a regex class over explicit code points. */
function charClass(members: string[]): string {
  let negate = false;
  let k = 0;
  if (members[0] === '!') {
    negate = true;
    k = 1;
  }
  let body = '';
  while (k < members.length) {
    const from = members[k]!;
    if (members[k + 1] === '-' && k + 2 < members.length) {
      const to = members[k + 2]!;
      // Python drops a reversed range (it matches nothing) rather than failing.
      if (from.codePointAt(0)! <= to.codePointAt(0)!) body += `${point(from)}-${point(to)}`;
      k += 3;
    } else {
      body += point(from);
      k += 1;
    }
  }
  if (body === '') return negate ? '.' : '(?!)';
  return `[${negate ? '^' : ''}${body}]`;
}

const point = (c: string): string => `\\u{${c.codePointAt(0)!.toString(16)}}`;
const escape = (c: string): string => (/[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c);

/**
 * Compiles a list of globs into one predicate: true when any glob matches.
 *
 * @param globs the patterns
 */
export function compileGlobs(globs: readonly string[]): (path: string) => boolean {
  const tests = globs.map(compileGlob);
  if (tests.length === 0) return () => false;
  return (path) => tests.some((test) => test(path));
}
