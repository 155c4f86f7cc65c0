import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  // Workspace packages are bundled from their built dist; the SQLite driver stays external (wasm file).
  external: ['node-sqlite3-wasm'],
});
