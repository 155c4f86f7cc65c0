import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import { PinoPretty } from 'pino-pretty';

/** Options of `createLogger`. */
export interface LoggerOptions {
  /** Readable lines (true) or JSON lines (false); default: whether stdout is a terminal. */
  readonly tty?: boolean | undefined;
  /** The lowest level written (`LOG_LEVEL`; default `info`). */
  readonly level?: string | undefined;
  /** Where lines go (default stdout). */
  readonly destination?: DestinationStream | NodeJS.WritableStream | undefined;
}

/**
 * The demo's logger, pino: JSON lines when stdout is not a terminal (what a log collector reads),
 * readable lines through pino-pretty in one (one line per message, fields inline). pino-pretty runs as a stream in this thread (not a
 * transport worker), so the bundled dist/main.js needs no module resolution at run time.
 *
 * @example
 * await serve(new DemoApp({ logger: createLogger() }), { port: 8000 });
 */
export function createLogger(options: LoggerOptions = {}): Pino {
  const tty = options.tty ?? process.stdout.isTTY === true;
  const level = options.level ?? 'info';
  const destination = options.destination ?? pino.destination({ fd: 1, sync: true });
  if (!tty) return pino({ level }, destination);
  return pino(
    { level },
    PinoPretty({
      destination: destination as NodeJS.WritableStream,
      colorize: options.destination === undefined,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
      sync: true,
    }),
  );
}
