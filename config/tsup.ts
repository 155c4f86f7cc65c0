// Shared tsup setup: ESM + .d.ts from src/index.ts, for Node 20.
import { defineConfig, type Options } from 'tsup';

export function packageBuild(overrides: Options = {}): Options | Options[] {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...overrides,
  }) as Options;
}
