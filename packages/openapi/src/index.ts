// @api/openapi — the OpenAPI 3.1 document (built once at wiring from the route catalogue) and an
// offline Scalar docs page, through core's public extension point only.
import './wiring-codes';
export { openapi } from './openapi';
export type { OpenAPIOptions } from './options';
export {
  buildDocument,
  type DocumentOptions,
  type OpenAPIDocument,
  type OpenAPIServer,
} from './document/build';
export { jsonSchemaOf } from './document/json-schema-of';
export type { JsonSchema } from './document/json-schema';
export { SCALAR_THEMES, type ScalarConfig, type ScalarTheme } from './docs/scalar-config';
export { SCALAR_VERSION } from './docs/scalar';
