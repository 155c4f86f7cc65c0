// Core maps typed header fields to wire names with this exact rule (packages/core/src/http/header-name.ts),
// but does not export it on `@api/core/extension` yet; kept identical here (see README, "Gaps").

function isUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}

function isLowerOrDigit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

/** `xTraceId` / `x_trace_id` → `x-trace-id` (a run of capitals is one word: `contentMD5` → `content-md5`). */
export function toHeaderName(field: string): string {
  let out = '';
  const len = field.length;
  for (let i = 0; i < len; i++) {
    const c = field.charCodeAt(i);
    if (c === 0x5f) {
      out += '-';
    } else if (isUpper(c)) {
      const prev = i > 0 ? field.charCodeAt(i - 1) : 0;
      const next = i + 1 < len ? field.charCodeAt(i + 1) : 0;
      const startsWord = isLowerOrDigit(prev) || (isUpper(prev) && next >= 0x61 && next <= 0x7a);
      out += (startsWord ? '-' : '') + String.fromCharCode(c + 32);
    } else {
      out += field[i];
    }
  }
  return out;
}
