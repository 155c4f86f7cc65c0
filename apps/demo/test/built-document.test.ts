// A generated client must not change with the bundler: the demo built as `pnpm build` builds
// dist/main.js (tsup.config.ts) serves the same /openapi.json, byte for byte, as the sources do
// under vitest — with the workspace packages from their sources (tsx), and from their own builds
// (plain `node`, as `pnpm start` runs it). Class names feed operationIds and Problem components:
// without `keepNames` (and the explicit `name` on WidgetResource, which refers to itself) esbuild
// documents `_WidgetResource_readOne`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo } from './helpers/demo';
import { buildDemo, removeBuild, startDemoProcess, type DemoProcess } from './helpers/process';

const BUILD = '.test-build-document';
/** The packages the demo imports at run time; `packages: 'dist'` needs their builds (turbo builds them before this test). */
const PACKAGES = ['core', 'auth', 'cors', 'streaming', 'ws', 'tasks', 'assets', 'openapi', 'otel'];

let main: string;
let fromSources: string;
const processes: DemoProcess[] = [];

beforeAll(async () => {
  main = await buildDemo(BUILD);
  const { client } = await startDemo();
  try {
    const res = await client.get('/openapi.json');
    expect(res.status).toBe(200);
    fromSources = res.text;
  } finally {
    await client.close();
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill()));
  removeBuild(BUILD);
});

/** `<method> <path> <operationId>` of every operation: a short diff when the names differ. */
function operations(document: string): string[] {
  const paths = (JSON.parse(document) as { paths: Record<string, Record<string, { operationId: string }>> })
    .paths;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => `${method} ${path} ${op.operationId}`),
  );
}

async function builtDocument(packages: 'source' | 'dist'): Promise<string> {
  const demo = await startDemoProcess(main, {}, { packages });
  processes.push(demo);
  const res = await fetch(`${demo.url}/openapi.json`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('the built demo’s OpenAPI document', () => {
  it('names operations after the classes, as the sources do', () => {
    const ops = operations(fromSources);
    expect(ops).toContain('get /widgets/{widget_id} WidgetResource_readOne');
    expect(ops.filter((op) => / _|\d_/.test(op))).toEqual([]);
  });

  it('is byte for byte the sources’ document (packages from their sources)', async () => {
    const built = await builtDocument('source');
    expect(operations(built)).toEqual(operations(fromSources));
    expect(built).toBe(fromSources);
  }, 60_000);

  it('is byte for byte the sources’ document (packages from their dist, as `pnpm start`)', async () => {
    const missing = PACKAGES.filter(
      (name) =>
        !existsSync(fileURLToPath(new URL(`../../../packages/${name}/dist/index.js`, import.meta.url))),
    );
    // turbo runs every dependency's build before this package's tests (apps/demo/turbo.json).
    expect(missing, 'packages without a build: run `pnpm build` (turbo does it before `pnpm test`)').toEqual(
      [],
    );
    const built = await builtDocument('dist');
    expect(operations(built)).toEqual(operations(fromSources));
    expect(built).toBe(fromSources);
  }, 60_000);
});
