// `pnpm create-app <dir> [--with auth,cors,…] [--registry]`: a new @api project in <dir> (outside
// or inside this checkout), with the quickstart app, a TestClient test, tsconfig.json, a pinned
// `packageManager` and the scripts dev/build/start/test/typecheck, installed and ready.
//
// Where the @api packages come from:
// - by default, tarballs packed from this checkout (built first, then `pnpm pack`, as the release
//   checks do), copied into <dir>/vendor/ and depended on as `file:vendor/…` — works before
//   anything is published, and the project keeps working if the checkout goes away;
// - with `--registry`, the npm registry at this checkout's versions (`^x.y.z`), once published.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { readManifest, root } from '../release/manifest.mjs';
import { PUBLISHED } from '../release/packages.mjs';
import { pack } from '../release/tarball.mjs';
import { run, userEnv } from '../release/run.mjs';
import {
  APP_TS,
  GITIGNORE,
  MAIN_TS,
  SCRIPTS,
  TEST_TS,
  TSCONFIG,
  TSCONFIG_BUILD,
  readme,
} from './templates.mjs';

/** What every project gets: core and the test client. */
const ALWAYS = ['core', 'testing'];

const USAGE = `usage: pnpm create-app <dir> [--with ${PUBLISHED.filter((p) => !ALWAYS.includes(p)).join(',')}] [--registry]

  <dir>        the new project's folder (must not exist, or be empty)
  --with a,b   more @api packages to install beside core and testing
  --registry   install @api packages from the npm registry (once published) instead of
               tarballs packed from this checkout`;

/**
 * Reads the command line: `{ dir, extras, registry }`; throws with the usage on a mistake.
 *
 * @param args - the arguments after the script name
 * @param cwd - where relative paths start (the folder the user ran pnpm in)
 */
export function parseArgs(args, cwd) {
  let dir;
  let extras = [];
  let registry = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--registry') registry = true;
    else if (arg === '--with' || arg.startsWith('--with=')) {
      const list = arg === '--with' ? args[++i] : arg.slice('--with='.length);
      if (!list) throw new Error(`--with needs a list of packages\n\n${USAGE}`);
      extras = list.split(',').map((name) => name.trim().replace(/^@api\//, ''));
    } else if (arg === '--help' || arg === '-h') throw new Error(USAGE);
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}\n\n${USAGE}`);
    else if (dir === undefined) dir = arg;
    else throw new Error(`one folder only (got ${dir} and ${arg})\n\n${USAGE}`);
  }
  if (dir === undefined) throw new Error(USAGE);
  for (const name of extras)
    if (!PUBLISHED.includes(name))
      throw new Error(`--with: no package @api/${name}; the packages are ${PUBLISHED.join(', ')}`);
  return {
    dir: isAbsolute(dir) ? dir : resolve(cwd, dir),
    extras: extras.filter((name) => !ALWAYS.includes(name)),
    registry,
  };
}

/** The root package.json of this checkout. */
const rootPackage = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** A registry version this repository builds and tests with (what pnpm's store already holds). */
function pin(name) {
  for (const manifest of [rootPackage(), readManifest('core'), readManifest('testing')]) {
    const range = manifest.devDependencies?.[name];
    if (range && /^\d/.test(range)) return range;
  }
  throw new Error(`no pinned version of ${name} in this repository`);
}

/** Builds and packs the packages into `vendor`; resolves with name → `file:` spec. */
async function packFromCheckout(names, vendor, log) {
  log(`building ${names.map((n) => `@api/${n}`).join(', ')} (turbo: instant when already built)`);
  const built = await run(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', ...names.map((n) => `--filter=@api/${n}`), '--output-logs=errors-only'],
    { cwd: root, env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' }, timeoutMs: 600_000 },
  );
  if (built.code !== 0) throw new Error(`building the packages failed\n${built.output}`);
  mkdirSync(vendor, { recursive: true });
  const specs = new Map();
  for (const name of names) {
    const tarball = await pack(name, vendor);
    specs.set(`@api/${name}`, `file:vendor/${basename(tarball)}`);
  }
  return specs;
}

/**
 * Creates the project. `log` receives progress lines; resolves with the project folder.
 *
 * @param options - `{ dir, extras, registry }` as `parseArgs` returns them
 */
export async function createApp({ dir, extras, registry }, log = console.log) {
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new Error(`${dir} exists and is not empty: pick a new folder`);
  const names = [...ALWAYS, ...extras];
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'), { recursive: true });
  const specs = registry
    ? new Map(names.map((name) => [`@api/${name}`, `^${readManifest(name).version}`]))
    : await packFromCheckout(names, join(dir, 'vendor'), log);
  const dependencies = { valibot: pin('valibot') };
  for (const name of names.filter((n) => n !== 'testing'))
    dependencies[`@api/${name}`] = specs.get(`@api/${name}`);
  const manifest = {
    name: basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-'),
    version: '0.0.1',
    private: true,
    type: 'module',
    // The pnpm this checkout pins: corepack uses it (without it, corepack fetches "latest").
    packageManager: rootPackage().packageManager,
    engines: { node: '>=20.19' },
    scripts: SCRIPTS,
    dependencies: sortKeys(dependencies),
    devDependencies: sortKeys({
      '@api/testing': specs.get('@api/testing'),
      '@types/node': pin('@types/node'),
      tsx: pin('tsx'),
      typescript: pin('typescript'),
    }),
  };
  const write = (file, text) => writeFileSync(join(dir, file), text);
  write('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
  write('tsconfig.json', `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  write('tsconfig.build.json', `${JSON.stringify(TSCONFIG_BUILD, null, 2)}\n`);
  write('src/app.ts', APP_TS);
  write('src/main.ts', MAIN_TS);
  write('test/app.test.ts', TEST_TS);
  write('README.md', readme(manifest.name));
  write('.gitignore', GITIGNORE);
  log(`installing (pnpm install in ${dir})`);
  // --ignore-workspace: a folder inside this checkout is still its own project.
  const installed = await run('pnpm', ['install', '--ignore-workspace', '--prefer-offline'], {
    cwd: dir,
    env: userEnv(),
    timeoutMs: 300_000,
  });
  if (installed.code !== 0) throw new Error(`pnpm install failed in ${dir}\n${installed.output}`);
  return dir;
}

function sortKeys(record) {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

// Run as a script (`pnpm create-app`): INIT_CWD is where the user typed the command.
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const options = parseArgs(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
    const dir = await createApp(options);
    console.log(
      `\ncreated ${dir}\n\n  cd ${dir}\n  pnpm dev        # http://localhost:8000/widgets, restarted on change\n  pnpm test\n  pnpm build && pnpm start\n`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
}
