// Shared tsup setup: ESM + .d.ts from src/index.ts, for Node 20.
//
// Libraries do not set `keepNames`: esbuild would wrap every named function in `__name(…)`,
// including closures created per request (the router's templated lookup, a stream's sink), which
// costs a defineProperty each time on the hot path. Names users see come from their own classes
// (route classes take `name`, apps build with `keepNames`: see apps/demo/tsup.config.ts).
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
