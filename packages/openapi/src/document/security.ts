import { wiringError, type RouteInfo } from '@api/core/extension';

/** One scheme as the document renders it (`SecurityScheme` of @api/auth, read structurally). */
interface SchemeLike {
  readonly schemeName: string;
  toOpenapi(): Record<string, unknown>;
}

/** How an authenticator is advertised (`AuthFacts` of @api/auth, read structurally). */
interface SecurityFacts {
  readonly anonymous: boolean;
  /** Alternatives: a client sends the credential of one of them. */
  readonly security: readonly SchemeLike[];
  /** Why `security` is empty (the authenticator needs `openapiSecurity`). */
  readonly undescribed?: string | undefined;
}

function isScheme(value: unknown): value is SchemeLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SchemeLike).schemeName === 'string' &&
    typeof (value as SchemeLike).toOpenapi === 'function'
  );
}

/**
 * The security schemes of a document: each operation's `security` requirement, and the
 * `components.securitySchemes` they name (one scheme per name, declared one way).
 */
export class SecuritySchemes {
  readonly #schemes = new Map<string, { object: Record<string, unknown>; json: string; where: string }>();
  readonly #rendered = new WeakMap<object, { object: Record<string, unknown>; json: string }>();

  /** `components.securitySchemes`, or `undefined` when no operation is authenticated. */
  components(): Record<string, unknown> | undefined {
    if (this.#schemes.size === 0) return undefined;
    return Object.fromEntries([...this.#schemes].map(([k, s]) => [k, s.object]));
  }

  /**
   * The operation's `security`: `[]` without an authenticator; otherwise one requirement per
   * scheme the authenticator accepts (alternatives: a hybrid one is `[{ bearerAuth: [] },
   * { apiKeyAuth: [] }]`), plus `{}` when anonymous requests are let through. An authenticator
   * that cannot be described (a cookie authenticator reading several cookies) fails wiring: a
   * guessed scheme would have generated clients send the wrong credential.
   *
   * @param route the catalogue's route
   * @param where `Owner.operation`, for wiring errors
   */
  requirement(route: RouteInfo, where: string): Record<string, string[]>[] {
    const facts = route.facts.get('auth') as Partial<SecurityFacts> | undefined;
    // No authenticator: say so explicitly (`security: []`), as linters expect.
    if (facts === undefined) return [];
    const security = facts.security;
    if (!Array.isArray(security) || !security.every(isScheme)) {
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `the mount's authenticator advertises an openapiSecurity that is not a SecurityScheme`,
        'use SecurityScheme.httpBearer(), SecurityScheme.httpBasic() or SecurityScheme.apiKey({ name, location }) from @api/auth',
      );
    }
    if (security.length === 0) {
      throw wiringError(
        'API_WIRING_OPENAPI_UNDESCRIBED',
        where,
        `the mount's authenticator cannot be described in OpenAPI (${facts.undescribed ?? 'it advertises no security scheme'})`,
        "give it openapiSecurity: the scheme clients use, e.g. SecurityScheme.apiKey({ name: 'session_id', location: 'cookie' }), or a list of alternatives",
      );
    }
    const requirement = security.map((scheme) => ({ [this.#register(scheme, where)]: [] as string[] }));
    return facts.anonymous ? [...requirement, {}] : requirement;
  }

  #register(scheme: SchemeLike, where: string): string {
    let rendered = this.#rendered.get(scheme);
    if (!rendered) {
      const object = scheme.toOpenapi();
      rendered = { object, json: JSON.stringify(object) };
      this.#rendered.set(scheme, rendered);
    }
    const { object, json } = rendered;
    const prior = this.#schemes.get(scheme.schemeName);
    if (prior && prior.json !== json) {
      throw wiringError(
        'API_WIRING_OPENAPI_CONFLICT',
        where,
        `security scheme "${scheme.schemeName}" is declared two ways (${prior.json} by ${prior.where}, ${json} here)`,
        `give one of them its own schemeName, e.g. SecurityScheme.apiKey({ …, schemeName: '${scheme.schemeName}2' })`,
      );
    }
    if (!prior) this.#schemes.set(scheme.schemeName, { object, json, where });
    return scheme.schemeName;
  }
}
