import { packageBuild } from '../../config/tsup';

// The demo is an app: one entry, no .d.ts; the SQLite driver stays external (it loads its .wasm file).
export default packageBuild({ entry: ['src/main.ts'], dts: false, external: ['node-sqlite3-wasm'] });
