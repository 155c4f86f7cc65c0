// Independent versions under changesets, proven on a scratch copy of the repository's manifests and
// .changeset/config.json (a git repository on a `main` branch): a core minor leaves the packages that
// list core as a peer alone, a core major is what forces theirs, and each package releases on its own.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifest, root } from './manifest.mjs';
import { PUBLISHED } from './packages.mjs';
import { run, userEnv } from './run.mjs';

const core = readManifest('core');
/** Published packages other than core, each with core as a peer. */
const dependents = PUBLISHED.filter((name) => name !== 'core').map(readManifest);
const versions = Object.fromEntries(
  PUBLISHED.map((name) => [readManifest(name).name, readManifest(name).version]),
);

/** The workspace's package folders, as pnpm-workspace.yaml lists them (`dir/*` or `dir`). */
function workspaceDirs() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.matchAll(/^\s+-\s+['"]?([^'"\s]+)['"]?\s*$/gm)].map(([, glob]) => glob);
  return globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(join(root, glob.slice(0, -2))).map((entry) => `${glob.slice(0, -2)}/${entry}`)
      : [glob],
  );
}

/** `x.y.z` bumped by `patch`, `minor` or `major`. */
function inc(version, bump) {
  const [major, minor, patch] = version.split('.').map(Number);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

let scratch;

/** Runs git in the scratch repository. */
const git = (...args) =>
  run('git', ['-c', 'user.name=release-check', '-c', 'user.email=release-check@localhost', ...args], {
    cwd: scratch,
  });

beforeEach(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'api-changesets-'));
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json'])
    cpSync(join(root, file), join(scratch, file));
  for (const dir of workspaceDirs())
    if (existsSync(join(root, dir, 'package.json')))
      cpSync(join(root, dir, 'package.json'), join(scratch, dir, 'package.json'));
  // changesets loads its changelog module and prettier from the project's node_modules.
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  writeFileSync(join(scratch, '.gitignore'), 'node_modules\n');
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'scratch'],
  ]) {
    const result = await git(...args);
    expect(result.code, result.output).toBe(0);
  }
});

afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes one changeset, runs `changeset version`, commits; resolves with name → new manifest. */
async function version(releases) {
  const front = Object.entries(releases)
    .map(([name, bump]) => `'${name}': ${bump}`)
    .join('\n');
  writeFileSync(join(scratch, '.changeset', `check-${Date.now()}.md`), `---\n${front}\n---\n\nA change.\n`);
  const result = await run(join(root, 'node_modules', '.bin', 'changeset'), ['version'], {
    cwd: scratch,
    env: userEnv({ CI: 'true' }),
  });
  expect(result.code, result.output).toBe(0);
  expect((await git('add', '-A')).code).toBe(0);
  expect((await git('commit', '-q', '-m', 'version')).code).toBe(0);
  return Object.fromEntries(
    PUBLISHED.map((name) => {
      const manifest = JSON.parse(readFileSync(join(scratch, 'packages', name, 'package.json'), 'utf8'));
      return [manifest.name, manifest];
    }),
  );
}

describe('changeset version', () => {
  it('gives a core minor to core alone: its dependents keep their versions and peer ranges', async () => {
    const after = await version({ [core.name]: 'minor' });
    expect(after[core.name].version).toBe(inc(core.version, 'minor'));
    for (const dependent of dependents) {
      expect(after[dependent.name].version, dependent.name).toBe(dependent.version);
      expect(after[dependent.name].peerDependencies, dependent.name).toEqual(dependent.peerDependencies);
    }
  });

  it('gives a core patch to core alone', async () => {
    const after = await version({ [core.name]: 'patch' });
    expect(after[core.name].version).toBe(inc(core.version, 'patch'));
    for (const dependent of dependents) expect(after[dependent.name].version).toBe(dependent.version);
  });

  it('forces a major on every dependent for a core major, with the peer range moved to the new core', async () => {
    const after = await version({ [core.name]: 'major' });
    const next = inc(core.version, 'major');
    expect(after[core.name].version).toBe(next);
    for (const dependent of dependents) {
      expect(after[dependent.name].version, dependent.name).toBe(inc(dependent.version, 'major'));
      expect(after[dependent.name].peerDependencies[core.name], dependent.name).toBe(`^${next}`);
    }
    // …and after that major, a core minor again leaves them alone.
    const later = await version({ [core.name]: 'minor' });
    expect(later[core.name].version).toBe(inc(next, 'minor'));
    for (const dependent of dependents)
      expect(later[dependent.name].version, dependent.name).toBe(after[dependent.name].version);
  });

  it.each(dependents.map((d) => d.name))('releases %s on its own', async (name) => {
    const after = await version({ [name]: 'minor' });
    for (const [other, manifest] of Object.entries(after))
      expect(manifest.version, other).toBe(other === name ? inc(versions[name], 'minor') : versions[other]);
  });

  it('needs onlyUpdatePeerDependentsWhenOutOfRange: without it a core minor makes every dependent major', async () => {
    // The control: proves the checks above can fail, and why the option is in .changeset/config.json.
    const file = join(scratch, '.changeset', 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    delete config.___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH;
    writeFileSync(file, JSON.stringify(config));
    const after = await version({ [core.name]: 'minor' });
    for (const dependent of dependents)
      expect(after[dependent.name].version, dependent.name).toBe(inc(dependent.version, 'major'));
  });
});
