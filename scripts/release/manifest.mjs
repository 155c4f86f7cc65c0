// The release fields every published package.json carries, derived from one place:
// licence, repository/homepage/bugs, and `publishConfig` (public access, and `exports` without the
// in-repo `@api/source` condition, so the published manifest points at `dist/` only).
//
//   node scripts/release/manifest.mjs          check; exit 1 and list what differs
//   node scripts/release/manifest.mjs --write  fix the package.json files in place
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLISHED } from './packages.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** Placeholder until the public repository exists: confirm before the first publish. */
export const REPOSITORY = 'https://github.com/api-framework/api';

/** The in-repo export condition that resolves workspace packages to their TypeScript sources. */
export const SOURCE_CONDITION = '@api/source';

/** `exports` with the source condition removed, at every depth. */
export function withoutSourceCondition(exports) {
  if (typeof exports !== 'object' || exports === null) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

/** The release fields package `name` (a folder under packages/) must carry. */
export function releaseFields(name, manifest) {
  return {
    license: 'MIT',
    repository: { type: 'git', url: `git+${REPOSITORY}.git`, directory: `packages/${name}` },
    homepage: `${REPOSITORY}/tree/main/packages/${name}#readme`,
    bugs: `${REPOSITORY}/issues`,
    publishConfig: { access: 'public', exports: withoutSourceCondition(manifest.exports) },
    // What the tarball holds beside README.md, LICENSE and package.json: dist/, plus any folder a
    // package ships on purpose (e.g. vendored files), so an existing list is kept.
    files: manifest.files ?? ['dist'],
  };
}

export function readManifest(name) {
  return JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
}

/** The fields of package `name` that differ from what they must be. */
export function manifestDrift(name) {
  const manifest = readManifest(name);
  return Object.entries(releaseFields(name, manifest))
    .filter(([key, value]) => JSON.stringify(manifest[key]) !== JSON.stringify(value))
    .map(([key]) => key);
}

/** Writes the release fields into package `name`'s package.json, keeping its key order otherwise. */
function write(name) {
  const manifest = readManifest(name);
  const fields = releaseFields(name, manifest);
  const out = {};
  const place = (key) => {
    if (!(key in out)) out[key] = fields[key];
  };
  for (const [key, value] of Object.entries(manifest)) {
    if (key in fields) continue;
    out[key] = value;
    if (key === 'description') ['license', 'repository', 'homepage', 'bugs'].forEach(place);
    if (key === 'exports') ['publishConfig', 'files'].forEach(place);
  }
  Object.keys(fields).forEach(place);
  writeFileSync(join(root, 'packages', name, 'package.json'), `${JSON.stringify(out, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fix = process.argv.includes('--write');
  let drifted = 0;
  for (const name of PUBLISHED) {
    const drift = manifestDrift(name);
    if (drift.length === 0) continue;
    if (fix) write(name);
    else {
      drifted += 1;
      console.error(
        `packages/${name}/package.json: ${drift.join(', ')} differ (fix: node scripts/release/manifest.mjs --write)`,
      );
    }
  }
  process.exit(drifted ? 1 : 0);
}
