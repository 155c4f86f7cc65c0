import { packageBuild } from '../../config/tsup';

// The demo is an app: one entry, no .d.ts; the SQLite driver stays external (it loads its .wasm file).
// keepNames: esbuild renames a class that refers to itself (`var WidgetResource = class
// _WidgetResource`) or clashes with another module's (`Foo2`); class names reach the OpenAPI
// document (operationIds, `<Error>Problem` components) and log lines, so the bundle keeps them
// (test/built-document.test.ts compares the built app's document with the sources').
export default packageBuild({
  entry: ['src/main.ts'],
  dts: false,
  external: ['node-sqlite3-wasm'],
  keepNames: true,
});
