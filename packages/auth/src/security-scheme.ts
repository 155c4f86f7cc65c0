/** Where an API key travels. */
export type ApiKeyLocation = 'header' | 'query' | 'cookie';

/** The OpenAPI `securitySchemes` entry a scheme renders. */
export type SecuritySchemeObject =
  | { type: 'http'; scheme: 'bearer'; bearerFormat?: string; description?: string }
  | { type: 'http'; scheme: 'basic'; description?: string }
  | { type: 'apiKey'; name: string; in: ApiKeyLocation; description?: string };

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
    return new SecurityScheme(options.schemeName ?? 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      ...(options.bearerFormat === undefined ? {} : { bearerFormat: options.bearerFormat }),
      ...(options.description === undefined ? {} : { description: options.description }),
    });
  }

  /** HTTP basic; scheme name `basicAuth` by default. */
  static httpBasic(options: { description?: string; schemeName?: string } = {}): SecurityScheme {
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
    if (!['header', 'query', 'cookie'].includes(options.location)) {
      throw new TypeError(
        `SecurityScheme.apiKey: location must be header, query or cookie (got ${JSON.stringify(options.location)})`,
      );
    }
    if (!options.name) throw new TypeError('SecurityScheme.apiKey: name is required');
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
