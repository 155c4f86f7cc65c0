// Conformance checks for any app that serves an @api/openapi document, by base URL: the demo's
// tests use these too. Nothing here knows the test app.
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
