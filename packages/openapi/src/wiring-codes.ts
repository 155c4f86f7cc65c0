// @api/openapi's own WiringError codes, added to core's registry (each documented in
// docs/errors.md, section "@api/openapi"; core's codes test keeps the two in step). Mistakes of
// kinds core names carry core's codes (a path, a status, an operationId used twice, …).
import type {} from '@api/core/extension';

declare module '@api/core/extension' {
  interface WiringErrorCodes {
    /** One document name given two meanings: a model, an error component, a tag or a security scheme. */
    API_WIRING_OPENAPI_CONFLICT: true;
    /** A `v.examples` entry that does not match its schema. */
    API_WIRING_OPENAPI_EXAMPLE: true;
    /** A favicon file that is not .ico, .png or .svg, or cannot be read. */
    API_WIRING_OPENAPI_FAVICON: true;
    /** A model or error class whose name cannot be a component key (or that has none). */
    API_WIRING_OPENAPI_NAME: true;
    /** A Standard Schema (zod, ArkType …) whose library offers no JSON Schema for the document. */
    API_WIRING_OPENAPI_NO_JSON_SCHEMA: true;
    /** An authenticator the document cannot describe (no `openapiSecurity`). */
    API_WIRING_OPENAPI_UNDESCRIBED: true;
    /** A response that is an untagged union of Structs (clients cannot tell the members apart). */
    API_WIRING_OPENAPI_UNTAGGED_UNION: true;
  }
}
