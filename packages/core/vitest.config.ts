import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    conditions: ['@api/source'],
    // Core's wire-level tests drive apps through @api/testing's sources (no package cycle).
    alias: { '@api/testing': fileURLToPath(new URL('../testing/src/index.ts', import.meta.url)) },
  },
  ssr: { resolve: { conditions: ['@api/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 15000,
  },
});
