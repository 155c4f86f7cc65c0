// What the transports that write their own answers (fetch, direct) share: the rules of the wire a
// node:http ServerResponse would apply for them, and node-shaped views of header lines.

/** Statuses whose response has no body at all (a `Response` refuses one; node sends none). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** A field name (a token), as node:http and a `Headers` accept it. */
export const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value, as node:http and a `Headers` accept it. */
export const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Hop-by-hop headers: not the app's to send where the transport owns the connection (fetch, direct). */
export const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/**
 * node:http's `headersDistinct` from raw header lines (name, value, name, value, …): every value
 * of a name, in arrival order. Shared by the transports that build it themselves (fetch, direct).
 *
 * @param raw - The raw header lines.
 */
export function distinctHeaders(raw: readonly string[]): Record<string, string[]> {
  const distinct: Record<string, string[]> = {};
  for (let i = 0; i < raw.length; i += 2) (distinct[raw[i]!] ??= []).push(raw[i + 1]!);
  return distinct;
}
