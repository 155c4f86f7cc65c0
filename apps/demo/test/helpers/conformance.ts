// The OpenAPI conformance checks shipped with @api/openapi (reusable for any app by base URL),
// imported from the package's test folder until they are published as a testing entry point.
export * from '../../../../packages/openapi/test/conformance/index';
