// The conformance checks as vitest assertions, for the test files of any app that serves an
// @api/openapi document (this package's and apps/demo's): what every such suite asserts, once.
import { expect, it } from 'vitest';
import { typecheckClient, type TypecheckReport } from './client';
import type { DocsPageReport } from './docs-page';
import { validateWithHyperjump, validateWithSeriousme, type Document } from './document';
import { redoclyLint } from './redocly';

/** Options of `documentConformanceTests`. */
export interface DocumentConformanceOptions {
  /** Time limit of the redocly lint test, ms (default 60,000: the CLI starts slowly on a busy machine). */
  readonly lintTimeoutMs?: number;
}

/**
 * Declares, in the current `describe`, one test per outside checker of the document: both schema
 * validators and `redocly lint` with the shipped redocly.yaml, each expecting no error.
 *
 * @param document the document under test (read when the tests run, e.g. fetched in `beforeAll`)
 * @param options the lint test's time limit
 * @example
 * describe('GET /openapi.json', () => documentConformanceTests(() => doc));
 */
export function documentConformanceTests(
  document: () => Document,
  options: DocumentConformanceOptions = {},
): void {
  it('passes @seriousme/openapi-schema-validator', async () => {
    const report = await validateWithSeriousme(document());
    expect(report.errors).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it("passes @hyperjump/json-schema (its OpenAPI version's dialect)", async () => {
    const report = await validateWithHyperjump(document());
    expect(report.errors).toEqual([]);
    expect(report.valid).toBe(true);
  });

  it(
    "passes redocly lint with @api/openapi's redocly.yaml (no errors)",
    async () => {
      const report = await redoclyLint(document());
      expect(report.errors).toEqual([]);
      expect(report.exitCode).toBe(0);
    },
    options.lintTimeoutMs ?? 60_000,
  );
}

/**
 * Type-checks a client against generated types and expects no diagnostic (so every
 * `@ts-expect-error` line holds).
 *
 * @param types what `generateTypes` returned
 * @param clientSource a module using `createClient<paths>()` from `./schema`
 */
export async function expectClientTypechecks(types: string, clientSource: string): Promise<TypecheckReport> {
  const report = await typecheckClient(types, clientSource);
  expect(report.diagnostics).toBe('');
  expect(report.ok).toBe(true);
  return report;
}

/**
 * Expects the docs page to have rendered offline: no request left loopback, no CSP violation, no
 * console error.
 *
 * @param report what `checkDocsPage` returned
 */
export function expectOfflineDocsPage(report: DocsPageReport): void {
  expect(report.rendered).toBe(true);
  expect(report.aborted).toEqual([]);
  expect(report.cspViolations).toEqual([]);
  expect(report.consoleErrors).toEqual([]);
}
