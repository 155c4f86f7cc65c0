// `Deno.serve(app.fetch)`: the fetch app on Deno's own server (no node:http).
import { FetchApp } from './fetch-app';

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen: (address: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
};

const app = new FetchApp({
  logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
});
Deno.serve(
  { port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`READY http://127.0.0.1:${port}`) },
  app.fetch,
);
