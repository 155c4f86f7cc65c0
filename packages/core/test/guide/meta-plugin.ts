// The worked plugin of docs/extensions.md: a mount option, a binding source, a custom route and a writer.
import { TooManyRequestsError } from '@api/core';
import {
  defineExtension,
  defineResponseKind,
  mountOption,
  type MountOptionValue,
  type ResponseSpec,
} from '@api/core/extension';

declare module '@api/core' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface MountOptions<TRoute extends object> {
    /** At most `limit` requests per mounted route, then 429 (before any body is read). */
    readonly quota?: Quota;
  }
  interface ExtensionSources {
    clientAddress: { declare: true; value: string };
  }
}

/** The mount option: compiled per route at wiring into a pre-handler step. */
export type Quota = MountOptionValue & { readonly limit: number };
export function quota(limit: number): Quota {
  return {
    limit,
    [mountOption]: () => {
      let used = 0; // one counter per route, decided at wiring
      return {
        before: () => {
          if (++used > limit) throw new TooManyRequestsError();
        },
      };
    },
  };
}

/** A writer for a response kind of our own: CSV rows, streamed after the head. */
export class Csv {
  constructor(readonly rows: readonly (readonly string[])[]) {}
}
export const CsvRows: ResponseSpec<Csv> = defineResponseKind<Csv>({
  kind: 'csv',
  cls: Csv,
  schema: undefined,
  headers: undefined,
  status: undefined,
  contentType: 'text/csv',
  compile: (ctx) => (value, sink) => {
    const head = sink.head(ctx.defaultStatus, 'text/csv; charset=utf-8', {});
    if (!sink.start(ctx.defaultStatus, head)) return; // HEAD: the head is all
    for (const row of (value as Csv).rows) sink.write(`${row.join(',')}\r\n`);
    sink.end();
  },
});

/** The extension: a `clientAddress` source and a custom route listing the route catalogue. */
export const meta = defineExtension({
  name: 'meta',
  setup(wiring) {
    wiring.addSource({
      name: 'clientAddress',
      compile: () => (ex) => ex.req.socket?.remoteAddress ?? 'unknown',
    });
    let listing = '';
    wiring.onWired((c) => void (listing = c.routes.map((r) => `${r.method} ${r.path} ${r.kind}`).join('\n')));
    if (wiring.hasRoute('GET', '/_meta/routes'))
      wiring.fail('meta', 'GET /_meta/routes is already answered', 'serve the other route elsewhere');
    wiring.addRoute({
      method: 'GET',
      path: '/_meta/routes',
      owner: 'meta',
      operation: 'routes',
      hidden: true,
      handle: (ex) => ex.send(200, ['content-type', 'text/plain; charset=utf-8'], listing),
    });
  },
});
