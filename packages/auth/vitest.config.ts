import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@api/source'] },
  ssr: { resolve: { conditions: ['@api/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    typecheck: { enabled: true, include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 15000,
  },
});
