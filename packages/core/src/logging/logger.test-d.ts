import { pino } from 'pino';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { BaseApp, Endpoint, type AppOptions, type LogFields, type StructuredLogger } from '../index';

class App extends BaseApp {
  protected override async wire(): Promise<void> {}
}

describe('the logger option', () => {
  it('takes a pino logger as it is', () => {
    const logger = pino();
    new App({ logger });
    expectTypeOf(logger).toMatchTypeOf<StructuredLogger>();
  });

  it('types an inline logger’s parameters from core’s call shape', () => {
    new App({
      logger: {
        info: (message, fields) => {
          expectTypeOf(message).toEqualTypeOf<string>();
          expectTypeOf(fields).toEqualTypeOf<LogFields | undefined>();
        },
        warn: (message, error) => {
          expectTypeOf(message).toEqualTypeOf<string>();
          expectTypeOf(error).toEqualTypeOf<unknown>();
        },
        error: () => undefined,
      },
    });
    // @ts-expect-error a logger needs error (and warn)
    new App({ logger: { info: () => undefined } });
  });

  it('requestLog is a boolean', () => {
    expectTypeOf<AppOptions['requestLog']>().toEqualTypeOf<boolean | undefined>();
  });
});

describe('the requestId source', () => {
  it('binds the request id as a string', () => {
    class Who extends Endpoint('/who') {
      get = this.operation({ requestId: true, returns: v.string() }, ({ requestId }) => {
        expectTypeOf(requestId).toEqualTypeOf<string>();
        return requestId;
      });
      // @ts-expect-error requestId is declared with true
      post = this.operation({ requestId: 'yes', returns: v.string() }, () => 'x');
    }
    expectTypeOf<Who>().not.toBeAny();
  });
});
