// Import rules `pnpm lint` enforces with dependency-cruiser (scripts/check-imports.mjs). ESLint's
// import-x/no-cycle skips `import type` and inline `import('…')` types; dependency-cruiser reads
// TypeScript before compilation (tsPreCompilationDeps), so a cycle made of type-only imports fails too.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
