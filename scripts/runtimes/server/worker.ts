// The Worker module workerd runs: every request answered by `app.fetch` (bundled by run.mjs with
// esbuild; `nodejs_compat` gives core the node: modules it imports).
import { FetchApp } from './fetch-app';

const app = new FetchApp({
  logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
});

export default { fetch: (request: Request): Response | Promise<Response> => app.fetch(request) };
