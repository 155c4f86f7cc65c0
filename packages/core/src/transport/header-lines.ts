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
