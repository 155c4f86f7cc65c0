// What tsc says about code that must not compile. `// @ts-expect-error` proves a line is rejected
// but not what the user reads; these helpers compile small fixture files (held in memory, placed
// in the package's test folder so imports resolve as in its own tests) in ONE TypeScript program
// with the package's tsconfig, and return each fixture's diagnostics as tsc prints them.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One fixture: a file's source, compiled beside the package's tests. */
export interface TypeFixture {
  /** A short name, unique in the set (the file is `<name>.fixture.ts`). */
  readonly name: string;
  /** The whole file, imports included. */
  readonly source: string;
}

/** The full text of each diagnostic of one fixture (the message chain tsc prints, joined by newlines). */
export type FixtureDiagnostics = Readonly<Record<string, readonly string[]>>;

/**
 * Type-checks every fixture in one program built from `<packageDir>/tsconfig.json`'s options and
 * returns, per fixture name, the text of its diagnostics (syntactic and semantic).
 *
 * @param packageDir the package's folder (`new URL('..', import.meta.url)` from its `test/`)
 * @param fixtures the files to compile
 */
export function compileFixtures(packageDir: URL, fixtures: readonly TypeFixture[]): FixtureDiagnostics {
  const root = fileURLToPath(packageDir);
  const configPath = join(root, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const files = new Map(fixtures.map((f) => [join(root, 'test', `${f.name}.fixture.ts`), f.source]));
  const host = ts.createCompilerHost(parsed.options, true);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => files.get(file) ?? read(file);
  host.fileExists = (file) => files.has(file) || exists(file);
  host.getSourceFile = (file, language, onError, create) => {
    const text = files.get(file);
    return text === undefined
      ? getSourceFile(file, language, onError, create)
      : ts.createSourceFile(file, text, language, true);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options: parsed.options, host });
  const out: Record<string, string[]> = {};
  for (const [file] of files) {
    const source = program.getSourceFile(file)!;
    const name = file.slice(join(root, 'test').length + 1, -'.fixture.ts'.length);
    out[name] = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
      (d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    );
  }
  return out;
}
