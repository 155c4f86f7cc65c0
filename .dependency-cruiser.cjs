// Import rules `pnpm lint` enforces with dependency-cruiser (scripts/check-imports.mjs). ESLint's
// import-x/no-cycle skips `import type` and inline `import('…')` types; dependency-cruiser reads
// TypeScript before compilation (tsPreCompilationDeps), so a cycle made of type-only imports fails too.
// Core's layers, bottom to top (docs/extensions.md, "Core's layers"): a folder imports only folders
// before it in this list, so no arrow runs back up and no two folders import each other.
const CORE_LAYERS = [
  'contract',
  'http',
  'multipart',
  'schema',
  'errors',
  'checks',
  'cookies',
  'logging',
  'lifecycle',
  'binding',
  'responses',
  'routing',
  'middleware',
  'route-class',
  'runtime',
  'wiring',
  'transport',
  'transport/fetch',
  'transport/direct',
  'transport/node',
  'app',
  'foreign',
];
const core = 'packages/core/src/';
const folderPattern = (name) =>
  name === 'transport' ? `^${core}transport/[^/]+\\.ts$` : `^${core}${name}/`;
const coreLayerRules = CORE_LAYERS.map((name, i) => ({
  name: `core-layers-${name.replace('/', '-')}`,
  severity: 'error',
  comment: `packages/core/src/${name} may import only the layers below it: ${CORE_LAYERS.slice(0, i).join(', ') || 'none'} (see docs/extensions.md).`,
  // Unit tests beside a file may import the public entry points above it.
  from: { path: folderPattern(name), pathNot: '\\.test(-d)?\\.ts$' },
  to: {
    path: [...CORE_LAYERS.slice(i + 1).map(folderPattern), `^${core}[^/]+\\.ts$`],
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...coreLayerRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycles inside a package, type-only imports included: move the shared type to its owner.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-inline-import-type',
      severity: 'error',
      comment:
        "An inline `import('…').T` type hides a dependency (it was used to dodge a cycle): import the type at the top.",
      from: {},
      to: { dependencyTypes: ['type-import'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
  },
};
