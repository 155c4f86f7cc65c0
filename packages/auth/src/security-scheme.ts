import * as v from 'valibot';
import { checkOptions } from '@api/core/extension';

/** Where an API key travels. */
export type ApiKeyLocation = 'header' | 'query' | 'cookie';

/** The OpenAPI `securitySchemes` entry a scheme renders. */
export type SecuritySchemeObject =
  | { type: 'http'; scheme: 'bearer'; bearerFormat?: string; description?: string }
  | { type: 'http'; scheme: 'basic'; description?: string }
  | { type: 'apiKey'; name: string; in: ApiKeyLocation; description?: string };

// Every option is a non-empty string and known: a typo would silently publish the wrong scheme.
const text = v.optional(v.pipe(v.string('a non-empty string'), v.minLength(1, 'a non-empty string')));
const Bearer = v.object({ bearerFormat: text, description: text, schemeName: text });
const Basic = v.object({ description: text, schemeName: text });
const ApiKey = v.object({
  name: v.pipe(
    v.string('the name of the header, query parameter or cookie that carries the key'),
    v.minLength(1, 'the name of the header, query parameter or cookie that carries the key'),
  ),
  location: v.picklist(['header', 'query', 'cookie'], 'header, query or cookie'),
  description: text,
  schemeName: text,
});
const FIXES = {
  bearerFormat: "e.g. bearerFormat: 'JWT'",
  description: "e.g. description: 'How callers authenticate'",
  schemeName: "e.g. schemeName: 'tokenAuth'",
  name: "e.g. name: 'session_id'",
  location: "e.g. location: 'cookie'",
};

/**
 * How an authenticator is advertised in OpenAPI (`openapiSecurity`).
 *
 * @example
 * SecurityScheme.apiKey({ name: 'session_id', location: 'cookie' })
 */
export class SecurityScheme {
  private constructor(
    /** The key under `components.securitySchemes`. */
    readonly schemeName: string,
    private readonly object: SecuritySchemeObject,
  ) {}

  /** HTTP bearer (`Authorization: Bearer …`); scheme name `bearerAuth` by default. */
  static httpBearer(
    options: { bearerFormat?: string; description?: string; schemeName?: string } = {},
  ): SecurityScheme {
    checkOptions('SecurityScheme.httpBearer', Bearer, options, { fixes: FIXES });
    return new SecurityScheme(options.schemeName ?? 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      ...(options.bearerFormat === undefined ? {} : { bearerFormat: options.bearerFormat }),
      ...(options.description === undefined ? {} : { description: options.description }),
    });
  }

  /** HTTP basic; scheme name `basicAuth` by default. */
  static httpBasic(options: { description?: string; schemeName?: string } = {}): SecurityScheme {
    checkOptions('SecurityScheme.httpBasic', Basic, options, { fixes: FIXES });
    return new SecurityScheme(options.schemeName ?? 'basicAuth', {
      type: 'http',
      scheme: 'basic',
      ...(options.description === undefined ? {} : { description: options.description }),
    });
  }

  /** A key in a header, query parameter or cookie; scheme name `apiKeyAuth` by default. */
  static apiKey(options: {
    name: string;
    location: ApiKeyLocation;
    description?: string;
    schemeName?: string;
  }): SecurityScheme {
    checkOptions('SecurityScheme.apiKey', ApiKey, options, { fixes: FIXES });
    return new SecurityScheme(options.schemeName ?? 'apiKeyAuth', {
      type: 'apiKey',
      name: options.name,
      in: options.location,
      ...(options.description === undefined ? {} : { description: options.description }),
    });
  }

  /** The `components.securitySchemes` entry. */
  toOpenapi(): SecuritySchemeObject {
    return { ...this.object };
  }
}
