// The packages published to npm, by folder under packages/. Each one is packed and checked by
// scripts/release (tarball contents, publint, attw, declared dependencies, its README example
// installed from the tarball into an empty project and run, independent versions under
// changesets). A new package joins every one of those checks by adding its folder name here
// (then `node scripts/release/manifest.mjs --write` fills its release fields).
export const PUBLISHED = [
  'core',
  'auth',
  'cors',
  'testing',
  'openapi',
  'tasks',
  'ws',
  'assets',
  'streaming',
  'otel',
  'compress',
  'rate-limit',
  'secure-headers',
  'client',
  'mcp',
];
