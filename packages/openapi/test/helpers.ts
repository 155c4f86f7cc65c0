import { BaseApp, type Logger } from '@api/core';
import type { Extension } from '@api/core/extension';
import { TestClient } from '@api/testing';
import { openapi, type OpenAPIOptions } from '../src/index';

/** A JSON object read from the document (tests index into it freely). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** An app whose `wire()` is a function (for one-off shapes in a test). */
export function appOf(
  wire: (app: {
    includeResource: (r: object, o?: object) => void;
    includeEndpoint: (e: object, o?: object) => void;
    include: <T>(e: Extension<T>) => T;
  }) => void,
  logger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined },
): BaseApp {
  class OneOff extends BaseApp {
    protected override async wire(): Promise<void> {
      wire({
        includeResource: (r, o) => this.includeResource(r as never, o as never),
        includeEndpoint: (e, o) => this.includeEndpoint(e as never, o as never),
        include: (e) => this.include(e),
      });
    }
  }
  return new OneOff({ logger });
}

/** Mounts `routes` plus `openapi(options)` and returns the served document. */
export async function documentOf(
  mount: (app: {
    includeResource: (r: object, o?: object) => void;
    includeEndpoint: (e: object, o?: object) => void;
  }) => void,
  options: Partial<OpenAPIOptions> = {},
): Promise<Json> {
  const app = appOf((a) => {
    mount(a);
    a.include(openapi({ title: 'T', version: '1', ...options }));
  });
  const client = await TestClient.start(app);
  try {
    return (await client.get(options.openapiPath ?? '/openapi.json')).json();
  } finally {
    await client.close();
  }
}
