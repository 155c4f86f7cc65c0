// The typed-client round trip: openapi-typescript turns the served document into types, and a
// small openapi-fetch client written against them must type-check (`tsc --noEmit`), including
// its `@ts-expect-error` lines (a wrong call that must NOT compile).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

/** Generates TypeScript types (`paths`, `components`, …) from the document served at `url`. */
export async function generateTypes(url: string | URL): Promise<string> {
  const ast = await openapiTS(new URL(url));
  return astToString(ast);
}

/** The outcome of type-checking a client against generated types. */
export interface TypecheckReport {
  readonly ok: boolean;
  /** tsc's diagnostics (empty when `ok`). */
  readonly diagnostics: string;
}

/**
 * Writes `schema.d.ts` (the generated types) and `client.ts` (your client source, which imports
 * `./schema` and `openapi-fetch`) into a temp project and runs `tsc --noEmit --strict` on it.
 *
 * @param types what `generateTypes` returned
 * @param clientSource a module using `createClient<paths>()`; `@ts-expect-error` lines must hold
 */
export async function typecheckClient(types: string, clientSource: string): Promise<TypecheckReport> {
  const require = createRequire(import.meta.url);
  const fetchTypes = dirname(require.resolve('openapi-fetch/package.json'));
  const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  try {
    writeFileSync(join(dir, 'schema.d.ts'), types);
    writeFileSync(join(dir, 'client.ts'), clientSource);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          skipLibCheck: true,
          lib: ['ES2023', 'DOM'],
          types: [],
          baseUrl: '.',
          paths: { 'openapi-fetch': [fetchTypes] },
        },
        files: ['client.ts'],
      }),
    );
    const diagnostics = await new Promise<{ ok: boolean; out: string }>((resolve) => {
      execFile(process.execPath, [tsc, '-p', dir], { cwd: dir, timeout: 120_000 }, (error, stdout, stderr) =>
        resolve({ ok: !error, out: `${stdout}${stderr}` }),
      );
    });
    return { ok: diagnostics.ok, diagnostics: diagnostics.out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
