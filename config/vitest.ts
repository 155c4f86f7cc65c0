// Shared vitest setup for every workspace package: resolve workspace packages to their TypeScript
// sources (the `@api/source` condition), run type tests (`*.test-d.ts`) with the unit tests.
import { defineConfig, type ViteUserConfig } from 'vitest/config';

export function packageConfig(extra: { alias?: Record<string, string> } = {}): ViteUserConfig {
  return defineConfig({
    resolve: { conditions: ['@api/source'], ...(extra.alias ? { alias: extra.alias } : {}) },
    ssr: { resolve: { conditions: ['@api/source'] } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      typecheck: {
        enabled: true,
        include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
        tsconfig: './tsconfig.json',
      },
      testTimeout: 15000,
    },
  });
}
