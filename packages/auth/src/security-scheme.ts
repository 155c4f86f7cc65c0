import { WiringError } from '@api/core/extension';

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
    checkSchemeOptions('SecurityScheme.httpBearer', options, ['bearerFormat', 'description', 'schemeName']);
    return new SecurityScheme(options.schemeName ?? 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      ...(options.bearerFormat === undefined ? {} : { bearerFormat: options.bearerFormat }),
      ...(options.description === undefined ? {} : { description: options.description }),
    });
  }

  /** HTTP basic; scheme name `basicAuth` by default. */
  static httpBasic(options: { description?: string; schemeName?: string } = {}): SecurityScheme {
    checkSchemeOptions('SecurityScheme.httpBasic', options, ['description', 'schemeName']);
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
    const where = 'SecurityScheme.apiKey';
    checkSchemeOptions(where, options, ['name', 'location', 'description', 'schemeName']);
    if (!['header', 'query', 'cookie'].includes(options.location)) {
      throw new WiringError(
        `${where}: location must be header, query or cookie (got ${JSON.stringify(options.location) ?? 'undefined'}). Fix: e.g. location: 'cookie'.`,
      );
    }
    if (typeof options.name !== 'string' || options.name === '')
      throw new WiringError(
        `${where}: name is required (the header, query parameter or cookie that carries the key). Fix: e.g. name: 'session_id'.`,
      );
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

/** Every option is a non-empty string and known: a typo would silently publish the wrong scheme. */
function checkSchemeOptions(where: string, options: unknown, keys: readonly string[]): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new WiringError(
      `${where}: options must be an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : `a ${typeof options}`}. Fix: pass { ${keys.join(', ')} }.`,
    );
  for (const [key, value] of Object.entries(options)) {
    if (!keys.includes(key))
      throw new WiringError(`${where}: unknown option "${key}". Fix: use only ${keys.join(', ')}.`);
    if (key !== 'location' && value !== undefined && (typeof value !== 'string' || value === ''))
      throw new WiringError(
        `${where}: ${key} must be a non-empty string, got ${value === null ? 'null' : `a ${typeof value}`}. Fix: e.g. ${key}: '${key === 'schemeName' ? 'tokenAuth' : key === 'bearerFormat' ? 'JWT' : key === 'name' ? 'session_id' : 'How callers authenticate'}'.`,
      );
  }
}
