// Calling mistakes fail tsc with a message that names the field: compiled here with the
// TypeScript API against a file that makes each mistake once.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('.', import.meta.url));
const file = `${dir}mistakes.virtual.ts`;
const source = `
import { createClient, route } from '../src/index';
import type { EchoEndpoint, WidgetResource } from './fixture/routes';
const api = createClient({
  baseUrl: '',
  routes: { widgets: route<WidgetResource>('/widgets'), echo: route<EchoEndpoint>('/echo') },
});
/* unknown operation */ void api.widgets.readAll;
/* missing path slot */ void api.widgets.readOne({ path: {} });
/* wrong body field  */ void api.widgets.create({ json: { nam: 'x', priceCents: 1 } });
/* wrong field type  */ void api.widgets.create({ json: { name: 'x', priceCents: '1' } });
/* missing header    */ void api.echo.get({ headers: { xTraceId: 't' } });
/* wrong mount path  */ route<WidgetResource>('/widget');
`;

function diagnostics(): Map<string, string> {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${dir}../tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  const { fileExists, readFile } = host;
  host.fileExists = (name) => name === file || fileExists(name);
  host.readFile = (name) => (name === file ? source : readFile(name));
  const program = ts.createProgram([file], config.options, host);
  const out = new Map<string, string>();
  const sf = program.getSourceFile(file)!;
  for (const d of ts.getPreEmitDiagnostics(program, sf)) {
    const line = sf.getLineAndCharacterOfPosition(d.start!).line;
    const label = /\/\* (.+?) +\*\//.exec(source.split('\n')[line]!)?.[1] ?? `line ${line}`;
    out.set(label, (out.get(label) ?? '') + ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return out;
}

describe('calling mistakes', () => {
  it('fail tsc with messages that name the operation, the field or the path', () => {
    const messages = diagnostics();
    expect([...messages.keys()].sort()).toEqual([
      'missing header',
      'missing path slot',
      'unknown operation',
      'wrong body field',
      'wrong field type',
      'wrong mount path',
    ]);
    expect(messages.get('unknown operation')).toMatch(/Property 'readAll' does not exist/);
    expect(messages.get('missing path slot')).toMatch(/Property 'widget_id' is missing/);
    expect(messages.get('wrong body field')).toMatch(/'nam' does not exist/);
    expect(messages.get('wrong field type')).toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(messages.get('missing header')).toMatch(/Property 'x_mode' is missing/);
    expect(messages.get('wrong mount path')).toMatch(
      /'"\/widget"' is not assignable to parameter of type '"\/widgets"'/,
    );
  }, 120_000);
});
