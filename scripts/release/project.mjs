// A user's project, from scratch: an empty folder with the package.json and tsconfig.json of
// examples/quickstart (ES module, NodeNext, strict), the README's install line run against the
// packed tarballs (no workspace links), then its example type-checked with tsc, compiled, and run
// with Node.
import { copyFileSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest, root } from './manifest.mjs';
import { PUBLISHED } from './packages.mjs';
import { run } from './run.mjs';

export const quickstart = join(root, 'examples', 'quickstart');

/** Tools every scratch project gets to type-check and compile (what a TypeScript user has). */
const TOOLS = ['typescript', '@types/node'];

/**
 * Versions for registry packages: the ones this repository builds and tests with, so the scratch
 * install is what CI tested and is served from pnpm's store.
 */
function pinnedVersions() {
  const manifests = [
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')),
    ...PUBLISHED.map(readManifest),
  ];
  const pins = new Map();
  for (const manifest of manifests)
    for (const [name, range] of Object.entries(manifest.devDependencies ?? {}))
      if (/^\d/.test(range) && !pins.has(name)) pins.set(name, range);
  return pins;
}

/**
 * Creates the project in `dir` and runs one `pnpm add` of `installs` (`[{ name }]` from the README)
 * plus the TypeScript tools. `@api/*` names resolve to the tarballs in `tarballs` (name → path);
 * one missing there fails the install instead of reaching the registry.
 */
export async function createProject(dir, installs, tarballs) {
  mkdirSync(dir, { recursive: true });
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const manifest = JSON.parse(readFileSync(join(quickstart, 'package.json'), 'utf8'));
  writeFileSync(
    join(dir, 'package.json'),
    // The pnpm the repository pins (corepack reads packageManager; without it corepack would fetch another).
    JSON.stringify({ ...manifest, packageManager: rootManifest.packageManager }, null, 2),
  );
  copyFileSync(join(quickstart, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  const pins = pinnedVersions();
  const names = [...new Set([...installs.map((i) => i.name), ...TOOLS])];
  const specs = names.map((name) => {
    if (name.startsWith('@api/')) {
      const tarball = tarballs.get(name);
      if (!tarball) throw new Error(`${name} is installed by the README but is not a published package`);
      return tarball;
    }
    return pins.has(name) ? `${name}@${pins.get(name)}` : name;
  });
  return run('pnpm', ['add', '--prefer-offline', '--config.confirmModulesPurge=false', ...specs], {
    cwd: dir,
    timeoutMs: 90_000,
  });
}

/** Lines of `output` that are promised, in order; the first promise not kept, or undefined. */
export function unkeptPromise(output, promised) {
  const lines = output.split('\n').map((line) => line.trim());
  let at = 0;
  for (const text of promised) {
    const found = lines.indexOf(text, at);
    if (found < 0) return text;
    at = found + 1;
  }
  return undefined;
}
