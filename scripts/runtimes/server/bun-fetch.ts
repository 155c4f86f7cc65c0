// `Bun.serve({ fetch: app.fetch })`: the fetch app on Bun's own server (no node:http).
import { FetchApp } from './fetch-app';

declare const Bun: {
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Response | Promise<Response> }): {
    readonly port: number;
  };
};

const app = new FetchApp({
  logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
});
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: app.fetch });
console.log(`READY http://127.0.0.1:${server.port}`);
