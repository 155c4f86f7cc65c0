/**
 * A typed header field name as core maps it to the wire (`xTraceId` and `x_trace_id` →
 * `x-trace-id`; a run of capitals is one word: `contentMD5` → `content-md5`).
 *
 * @param field - a schema field name
 */
export function toHeaderName(field: string): string {
  let out = '';
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    if (c === '_') out += '-';
    else if (c >= 'A' && c <= 'Z') {
      const prev = field[i - 1] ?? '';
      const next = field[i + 1] ?? '';
      const startsWord = /[a-z0-9]/.test(prev) || (/[A-Z]/.test(prev) && /[a-z]/.test(next));
      out += (startsWord ? '-' : '') + c.toLowerCase();
    } else out += c;
  }
  return out;
}
