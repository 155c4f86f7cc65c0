// A logger for tests that records each line as `<level> <message>` instead of printing it.

/** A logger that records instead of printing. */
export function memoryLogger(): {
  lines: string[];
  info(m: string): void;
  warn(m: string): void;
  error(m: string, e?: unknown): void;
} {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}
