// Packing a published package the way `pnpm publish` would, and reading the tarball back.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { readManifest, root } from './manifest.mjs';
import { run } from './run.mjs';

/** `pnpm pack` of packages/<name> into `dest`; resolves with the tarball's path. */
export async function pack(name, dest) {
  const manifest = readManifest(name);
  const result = await run('pnpm', ['pack', '--pack-destination', dest], {
    cwd: join(root, 'packages', name),
  });
  if (result.code !== 0) throw new Error(`pnpm pack failed for packages/${name}\n${result.output}`);
  return join(dest, `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`);
}

/** Unpacks a tarball into `dir`; resolves with the package folder (`dir/package`). */
export async function unpack(tarball, dir) {
  mkdirSync(dir, { recursive: true });
  const result = await run('tar', ['-xzf', tarball, '-C', dir]);
  if (result.code !== 0) throw new Error(`tar -xzf ${tarball} failed\n${result.output}`);
  return join(dir, 'package');
}

/** Every file below `dir`, as `/`-separated paths relative to it, sorted. */
export function filesBelow(dir, prefix = '') {
  return readdirSync(dir)
    .flatMap((entry) =>
      statSync(join(dir, entry)).isDirectory()
        ? filesBelow(join(dir, entry), `${prefix}${entry}/`)
        : [`${prefix}${entry}`],
    )
    .sort();
}

const builtins = new Set(builtinModules);

/**
 * The packages the shipped code and declarations import: bare specifiers of every `.js`/`.d.ts`
 * file under `dist/` (static, side-effect, dynamic and `import('…')` type imports), reduced to
 * package names; Node built-ins and relative paths left out. Other shipped files (a vendored
 * browser bundle) are assets a browser loads, not modules Node resolves.
 */
export function importedPackages(packageDir) {
  const names = new Set();
  for (const file of filesBelow(packageDir).filter((f) => /^dist\/.*\.(js|d\.ts)$/.test(f))) {
    const text = readFileSync(join(packageDir, file), 'utf8');
    const specifiers = [
      ...text.matchAll(/\bfrom\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((m) => m[1]);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.') || specifier.startsWith('node:') || builtins.has(specifier)) continue;
      const parts = specifier.split('/');
      const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (!builtins.has(name)) names.add(name);
    }
  }
  return [...names].sort();
}
