// Credential headers must be unambiguous: one sent on two lines is a 400 before authenticate runs.
import { badRequest, toHeaderName, type ObjectSchemaLike } from '@api/core/extension';

/** Wire names of the header fields an authenticator reads singly (credentials must be unambiguous). */
export function singleHeaderNames(schema: ObjectSchemaLike | undefined): string[] {
  if (!schema) return [];
  const names: string[] = [];
  for (const [key, field] of Object.entries(schema.entries)) {
    let s = field as { type: string; wrapped?: unknown };
    while (s.wrapped && s.type !== 'array') s = s.wrapped as typeof s;
    if (s.type !== 'array') names.push(toHeaderName(key));
  }
  return names;
}

/**
 * A check that refuses a request sending a credential header on more than one line (400): Node keeps
 * only the first `Authorization` line, so the result would depend on the order of the lines.
 */
export function duplicateCheck(names: readonly string[]): ((raw: readonly string[]) => void) | undefined {
  if (names.length === 0) return undefined;
  const lengths = new Set(names.map((n) => n.length));
  const refuse = (lower: string): never => {
    throw badRequest(`header ${lower}`, 'Header sent more than once');
  };
  return (raw) => {
    // One bit per credential header seen (an authenticator reads a handful): nothing allocated.
    let seen = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (!lengths.has(name.length)) continue;
      // Clients mostly send the lowercase name: find it before paying for toLowerCase().
      let at = names.indexOf(name);
      if (at < 0) at = names.indexOf(name.toLowerCase());
      if (at < 0) continue;
      const bit = 2 ** at;
      if (Math.floor(seen / bit) % 2 === 1) refuse(names[at]!);
      seen += bit;
    }
  };
}
