// The release checks (scripts/release/*.test.mjs): run by scripts/check.mjs after the build, summed
// into its `N passed, N failed` line; alone with `pnpm test:release`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.mjs'],
    globalSetup: ['./build.mjs'],
    // The work is in child processes (pnpm, tsc, node, attw): let the files overlap.
    maxWorkers: 3,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
