import { defineConfig } from 'vitest/config';

// One target per run (TARGET, see targets.mjs): its server starts once in the global setup, and
// the files for its kind run against it over HTTP, one at a time (they share the server's state).
const kind = process.env.TARGET_KIND ?? 'demo';

export default defineConfig({
  test: {
    include: kind === 'demo' ? ['suite/*.test.ts'] : ['suite/streams.test.ts', 'suite/fetch-app.test.ts'],
    exclude: kind === 'demo' ? ['suite/fetch-app.test.ts'] : [],
    globalSetup: ['suite/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 20_000,
    hookTimeout: 90_000,
  },
});
