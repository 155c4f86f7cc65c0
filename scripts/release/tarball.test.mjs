// Every published package as a user gets it: `pnpm pack`ed, its tarball's contents and manifest
// checked, linted by publint and attw, then installed from the tarball (no workspace links) into an
// empty project where its README example is type-checked, compiled and run against a real socket.
// The root README's example is examples/quickstart/main.ts, run the same way.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest, root, SOURCE_CONDITION, withoutSourceCondition } from './manifest.mjs';
import { PUBLISHED } from './packages.mjs';
import { createProject, quickstart, unkeptPromise } from './project.mjs';
import { codeBlocks, exampleOf, installsOf, promisedOutput } from './readme.mjs';
import { run } from './run.mjs';
import { filesBelow, importedPackages, pack, unpack } from './tarball.mjs';

const work = mkdtempSync(join(tmpdir(), 'api-release-'));
/** Package name → tarball path, for every published package. */
const tarballs = new Map();
/** Package name → unpacked tarball folder. */
const unpacked = new Map();
/** Package name → attw's run over its tarball (started at once: each one boots TypeScript). */
const attwRuns = new Map();

/** attw over a tarball, JSON out. ESM only by design: the profile leaves out node10 and require(). */
const attw = (tarball) =>
  run(
    join(root, 'node_modules', '.bin', 'attw'),
    [tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'json'],
    { timeoutMs: 90_000 },
  );

beforeAll(async () => {
  await Promise.all(
    PUBLISHED.map(async (name) => {
      const tarball = await pack(name, join(work, 'tarballs'));
      const manifest = readManifest(name);
      tarballs.set(manifest.name, tarball);
      attwRuns.set(name, attw(tarball));
      unpacked.set(name, await unpack(tarball, join(work, 'unpacked', name)));
    }),
  );
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Files a tarball may hold beside dist/: what npm always ships. */
const ALWAYS = ['LICENSE', 'README.md', 'package.json'];

describe.each(PUBLISHED)('@api/%s tarball', (name) => {
  const dir = () => unpacked.get(name);
  const packed = () => JSON.parse(readFileSync(join(dir(), 'package.json'), 'utf8'));

  it('holds README.md, LICENSE, package.json and what its `files` list ships (dist/); no sources or tests', () => {
    const files = filesBelow(dir());
    const shipped = packed().files ?? [];
    expect(shipped).toContain('dist');
    const listed = (f) => shipped.some((entry) => f === entry || f.startsWith(`${entry}/`));
    expect(files.filter((f) => !listed(f) && !ALWAYS.includes(f))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(ALWAYS));
    expect(files.filter((f) => /(^|\/)(src|test|tests|__tests__)\//.test(f))).toEqual([]);
    expect(files.filter((f) => /\.(test|spec|test-d)\.[cm]?[jt]s$/.test(f))).toEqual([]);
    expect(files.filter((f) => /\.[cm]?tsx?$/.test(f) && !/\.d\.[cm]?ts$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/') && !/\.(js|d\.ts|js\.map)$/.test(f))).toEqual([]);
    // Maps are shipped on purpose: they carry their sources' text, so `node --enable-source-maps`
    // shows TypeScript lines without any src/ in the tarball.
    for (const map of files.filter((f) => f.endsWith('.js.map'))) {
      const { sources, sourcesContent = [] } = JSON.parse(readFileSync(join(dir(), map), 'utf8'));
      expect(sourcesContent.filter((s) => typeof s === 'string').length, map).toBe(sources.length);
    }
    expect(readFileSync(join(dir(), 'LICENSE'), 'utf8')).toBe(readFileSync(join(root, 'LICENSE'), 'utf8'));
  });

  it('publishes exports without the in-repo source condition, and no workspace: ranges', () => {
    const manifest = packed();
    const source = readManifest(name);
    expect(JSON.stringify(manifest.exports)).not.toContain(SOURCE_CONDITION);
    expect(manifest.exports).toEqual(withoutSourceCondition(source.exports));
    expect(Object.keys(manifest.exports)).toContain('./package.json');
    for (const target of JSON.stringify(manifest.exports).match(/"\.\/dist\/[^"]+"/g) ?? [])
      expect(filesBelow(dir()), target).toContain(JSON.parse(target).slice(2));
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    expect(manifest).toMatchObject({ license: 'MIT', type: 'module', sideEffects: false });
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\//);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs).toMatch(/^https:\/\//);
  });

  it('declares exactly the packages its code and declarations import', () => {
    const manifest = packed();
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).sort();
    // A package's own name in its docs (`import { … } from '@api/client'` in an example) is not a dependency.
    expect(importedPackages(dir()).filter((n) => n !== manifest.name)).toEqual(declared);
  });

  it('has nothing for publint to report (suggestions included, warnings as errors)', async () => {
    const data = readFileSync(tarballs.get(readManifest(name).name));
    const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    const { messages, pkg } = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
    expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false })}`)).toEqual([]);
  });

  it('has nothing for attw to report under the ESM-only profile', async () => {
    const result = await attwRuns.get(name);
    const problems = JSON.parse(result.stdout).analysis?.problems ?? [];
    const counted = problems.filter((p) => !['node10', 'node16-cjs'].includes(p.resolutionKind));
    expect(counted).toEqual([]);
    expect(result.code, result.output).toBe(0);
  });
});

/**
 * The READMEs whose example is installed and run: each published package's, and the root's
 * (whose example is examples/quickstart/main.ts).
 */
const readmes = [
  ...PUBLISHED.map((name) => ({
    label: `packages/${name}/README.md`,
    file: join(root, 'packages', name, 'README.md'),
  })),
  // The root README starts with `pnpm create-app`; its `pnpm add` lines are in the by-hand block after it.
  {
    label: 'README.md',
    file: join(root, 'README.md'),
    source: join(quickstart, 'main.ts'),
    allInstalls: true,
  },
];

describe('the root README example', () => {
  const markdown = readFileSync(join(root, 'README.md'), 'utf8');

  it('is examples/quickstart/main.ts, word for word', () => {
    expect(exampleOf(markdown)).toBe(readFileSync(join(quickstart, 'main.ts'), 'utf8'));
  });

  it('shows the tsconfig.json the examples are checked with', () => {
    const json = codeBlocks(markdown).find((block) => block.lang === 'json')?.code;
    expect(json).toBe(readFileSync(join(quickstart, 'tsconfig.json'), 'utf8'));
  });
});

describe.concurrent.each(readmes)('$label example', ({ label, file, source, allInstalls = false }) => {
  it('installs from the tarballs into an empty project, type-checks, and runs as promised', async () => {
    const markdown = readFileSync(file, 'utf8');
    const example = source ? readFileSync(source, 'utf8') : exampleOf(markdown);
    expect(example, `${label}: no \`\`\`ts example`).toBeTruthy();
    const installs = installsOf(markdown, { all: allInstalls });
    expect(installs.length, `${label}: no \`pnpm add\` line in its first \`\`\`sh block`).toBeGreaterThan(0);

    const dir = join(work, 'projects', label.replace(/\W+/g, '-'));
    const installed = await createProject(dir, installs, tarballs);
    expect(installed.code, installed.output).toBe(0);
    // Every @api package came from a tarball, and there is one copy of core.
    const store = readdirSync(join(dir, 'node_modules', '.pnpm'));
    expect(store.filter((entry) => entry.startsWith('@api+') && !entry.includes('@file+'))).toEqual([]);
    expect(store.filter((entry) => entry.startsWith('@api+core@'))).toHaveLength(1);

    writeFileSync(join(dir, 'example.ts'), example);
    const tsc = await run(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', '.'], {
      cwd: dir,
      timeoutMs: 90_000,
    });
    expect(tsc.code, `${label}: the example does not type-check\n${tsc.output}`).toBe(0);

    const node = await run(process.execPath, ['dist/example.js'], { cwd: dir, timeoutMs: 30_000 });
    expect(node.code, `${label}: the example did not exit cleanly\n${node.output}`).toBe(0);
    const promised = promisedOutput(example);
    expect(unkeptPromise(node.stdout, promised), `${label}: printed\n${node.stdout}`).toBeUndefined();

    // A README that installs tsx tells the user to run the .ts file with it: that works too.
    if (installs.some((i) => i.name === 'tsx')) {
      const tsx = await run(join(dir, 'node_modules', '.bin', 'tsx'), ['example.ts'], {
        cwd: dir,
        timeoutMs: 30_000,
      });
      expect(tsx.code, `${label}: tsx example.ts failed\n${tsx.output}`).toBe(0);
      expect(unkeptPromise(tsx.stdout, promised), `${label}: tsx printed\n${tsx.stdout}`).toBeUndefined();
    }
  });
});
