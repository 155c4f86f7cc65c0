// The @api app of api.mjs as a Worker module on workerd: `export default { fetch: app.fetch }`
// (workerd's own HTTP server, no node:http). Bundled and served by src/servers.mjs
// (`pnpm bench --runtimes`), with the pinned workerd of scripts/runtimes.
import { App } from './api.mjs';

const app = new App({ logger: { info: () => {}, warn: () => {}, error: (m, e) => console.error(m, e) } });

// workerd loads the module just before its socket listens: the bench harness waits for this line.
console.log('ready');

export default { fetch: (request) => app.fetch(request) };
