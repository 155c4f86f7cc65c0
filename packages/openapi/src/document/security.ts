import type { RouteInfo } from '@api/core/extension';
import { fail } from './fail';

/** How an authenticator is advertised (`AuthFacts` of @api/auth, read structurally). */
interface SecurityFacts {
  readonly anonymous: boolean;
  readonly scheme: { readonly schemeName: string; toOpenapi(): Record<string, unknown> };
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
   * The operation's `security`: `[]` without an authenticator, its scheme otherwise (plus `{}`
   * when anonymous requests are let through).
   *
   * @param route the catalogue's route
   * @param where `Owner.operation`, for wiring errors
   */
  requirement(route: RouteInfo, where: string): Record<string, string[]>[] {
    const facts = route.facts.get('auth') as Partial<SecurityFacts> | undefined;
    // No authenticator: say so explicitly (`security: []`), as linters expect.
    if (facts === undefined) return [];
    const scheme = facts.scheme;
    if (
      !scheme ||
      typeof scheme !== 'object' ||
      typeof scheme.schemeName !== 'string' ||
      typeof scheme.toOpenapi !== 'function'
    ) {
      fail(
        where,
        `the mount's authenticator advertises an openapiSecurity that is not a SecurityScheme`,
        'use SecurityScheme.httpBearer(), SecurityScheme.httpBasic() or SecurityScheme.apiKey({ name, location }) from @api/auth',
      );
    }
    let rendered = this.#rendered.get(scheme);
    if (!rendered) {
      const object = scheme.toOpenapi();
      rendered = { object, json: JSON.stringify(object) };
      this.#rendered.set(scheme, rendered);
    }
    const { object, json } = rendered;
    const prior = this.#schemes.get(scheme.schemeName);
    if (prior && prior.json !== json) {
      fail(
        where,
        `security scheme "${scheme.schemeName}" is declared two ways (${prior.json} by ${prior.where}, ${json} here)`,
        `give one of them its own schemeName, e.g. SecurityScheme.apiKey({ …, schemeName: '${scheme.schemeName}2' })`,
      );
    }
    if (!prior) this.#schemes.set(scheme.schemeName, { object, json, where });
    const requirement = [{ [scheme.schemeName]: [] as string[] }];
    return facts.anonymous ? [...requirement, {}] : requirement;
  }
}
