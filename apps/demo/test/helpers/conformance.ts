// The OpenAPI conformance checks of @api/openapi (reusable for any app by base URL, and their
// vitest expectations), imported from the package's test folder: the one place the demo's tests
// reach into it. Not a package export: the folder is not published (package.json `files`), and
// the checks bring heavy dev-only tools (two validators, redocly, openapi-typescript, Chromium).
export * from '../../../../packages/openapi/test/conformance/index';
