#!/usr/bin/env node
// `pnpm lint`'s import check: dependency-cruiser over every package's `src` with the rules of
// `.dependency-cruiser.cjs` (no cycles, type-only imports included; no inline `import()` types).
// Through its API, not its CLI: the CLI refuses Node 20 (it follows Node's release cycle), the API
// runs on it. Usage: node scripts/check-imports.mjs [folder…] (default: packages/*/src apps/*/src).
import { readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';

const root = join(import.meta.dirname, '..');
process.chdir(root);
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs');
const folders = process.argv.slice(2);
if (folders.length === 0)
  for (const group of ['packages', 'apps'])
    for (const name of readdirSync(group))
      if (existsSync(join(group, name, 'src'))) folders.push(join(group, name, 'src'));

let failed = 0;
for (const folder of folders) {
  const tsconfig = join(folder, '..', 'tsconfig.json');
  const result = await cruise(
    [folder],
    {
      ...config.options,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      ...(existsSync(tsconfig) ? { tsConfig: { fileName: tsconfig } } : {}),
    },
    undefined,
    {},
  );
  const violations = result.output.summary.violations;
  for (const v of violations) {
    const via = v.cycle ? ` (cycle: ${[v.from, ...v.cycle.map((c) => c.name ?? c)].join(' -> ')})` : '';
    console.error(`${v.rule.name}: ${v.from} -> ${v.to}${via}`);
  }
  failed += violations.length;
}
if (failed > 0) {
  console.error(`check-imports: ${failed} violation(s); see .dependency-cruiser.cjs`);
  process.exit(1);
}
console.log(`check-imports: ${folders.length} folders, no cycles, no inline import() types`);
