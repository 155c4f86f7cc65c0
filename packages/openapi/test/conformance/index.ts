// Conformance checks for any app that serves an @api/openapi document, by base URL: the demo's
// tests use these too (through apps/demo/test/helpers/conformance.ts). Nothing here knows the test
// app; expectations.ts turns the common checks into vitest tests and assertions.
//
//   const exchanges: RecordedExchange[] = [];
//   const client = await TestClient.start(recordingApp(new DemoApp(…), exchanges)); // records every response
//   const doc = await fetchDocument(client.url);
//   for (const r of await validateDocument(doc)) expect(r.errors).toEqual([]);      // two validators
//   expect((await redoclyLint(doc)).errors).toEqual([]);                            // shipped redocly.yaml
//   const types = await generateTypes(`${client.url}/openapi.json`);               // openapi-typescript
//   expect((await typecheckClient(types, clientSource)).diagnostics).toBe('');      // openapi-fetch + tsc
//   … run the suite's requests through `client` (or an openapi-fetch client with recordingFetch) …
//   expect((await checkContract(doc, exchanges)).violations).toEqual([]);          // status, media type, schema
//   const page = await checkDocsPage(`${client.url}/docs`, { expectText: '/widgets', screenshot: 'docs/docs-page.png' });
//   expect([page.aborted, page.cspViolations, page.consoleErrors]).toEqual([[], [], []]);
export {
  fetchDocument,
  validateDocument,
  validateWithHyperjump,
  validateWithSeriousme,
  type Document,
  type ValidatorReport,
} from './document';
export { redoclyLint, REDOCLY_CONFIG, type LintProblem, type LintReport } from './redocly';
export { generateTypes, typecheckClient, type TypecheckReport } from './client';
export {
  checkContract,
  ContractChecker,
  recordingApp,
  recordingFetch,
  recordingListener,
  type ContractReport,
  type ListenerApp,
  type RecordedExchange,
} from './contract';
export {
  checkDocsPage,
  launchChromium,
  CHROMIUM,
  type DocsPageOptions,
  type DocsPageReport,
} from './docs-page';
export {
  documentConformanceTests,
  expectClientTypechecks,
  expectOfflineDocsPage,
  type DocumentConformanceOptions,
} from './expectations';
