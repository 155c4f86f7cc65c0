// A block of security response headers, checked and rendered once at construction: what every
// covered answer carries, unchanged, with no work per request.
import {
  checkKnownKeys,
  describeValue,
  mountOption,
  wiringError,
  type MountContext,
  type MountOptionValue,
  type RouteContribution,
} from '@api/core/extension';

/** The headers of a `SecureHeaders` block; `false` leaves one out (defaults in brackets). */
export interface SecureHeadersOptions {
  /** `strict-transport-security`: browsers use HTTPS only for this host. [`max-age=31536000; includeSubDomains`] */
  readonly strictTransportSecurity?: string | false;
  /** `x-content-type-options`: no MIME sniffing. [`nosniff`] */
  readonly contentTypeOptions?: 'nosniff' | false;
  /** `referrer-policy`. [`no-referrer`] */
  readonly referrerPolicy?: ReferrerPolicy | false;
  /** `cross-origin-opener-policy`: a page opened from elsewhere gets no handle on this one. [`same-origin`] */
  readonly crossOriginOpenerPolicy?:
    | 'same-origin'
    | 'same-origin-allow-popups'
    | 'noopener-allow-popups'
    | 'unsafe-none'
    | false;
  /** `cross-origin-resource-policy`: other origins may not embed these answers (CORS reads are unaffected). [`same-origin`] */
  readonly crossOriginResourcePolicy?: 'same-origin' | 'same-site' | 'cross-origin' | false;
  /** `x-frame-options`: frame protection (clickjacking). [`DENY`] */
  readonly frameOptions?: 'DENY' | 'SAMEORIGIN' | false;
  /**
   * `content-security-policy`, e.g. `"default-src 'none'; frame-ancestors 'none'"` for a JSON-only
   * API. [none: pages served by the app (the docs page, assets) need their own]
   */
  readonly contentSecurityPolicy?: string | false;
}

/** The `referrer-policy` values (W3C Referrer Policy). */
export type ReferrerPolicy =
  | 'no-referrer'
  | 'no-referrer-when-downgrade'
  | 'origin'
  | 'origin-when-cross-origin'
  | 'same-origin'
  | 'strict-origin'
  | 'strict-origin-when-cross-origin'
  | 'unsafe-url';

type Field = keyof SecureHeadersOptions;

/** Each option: its header name, default and allowed values (undefined: any value of the form). */
const FIELDS: Readonly<
  Record<Field, { header: string; default: string | false; values?: readonly string[]; form?: RegExp }>
> = {
  strictTransportSecurity: {
    header: 'strict-transport-security',
    default: 'max-age=31536000; includeSubDomains',
    form: /^max-age=\d{1,10}(; ?includeSubDomains)?(; ?preload)?$/i,
  },
  contentTypeOptions: { header: 'x-content-type-options', default: 'nosniff', values: ['nosniff'] },
  referrerPolicy: {
    header: 'referrer-policy',
    default: 'no-referrer',
    values: [
      'no-referrer',
      'no-referrer-when-downgrade',
      'origin',
      'origin-when-cross-origin',
      'same-origin',
      'strict-origin',
      'strict-origin-when-cross-origin',
      'unsafe-url',
    ],
  },
  crossOriginOpenerPolicy: {
    header: 'cross-origin-opener-policy',
    default: 'same-origin',
    values: ['same-origin', 'same-origin-allow-popups', 'noopener-allow-popups', 'unsafe-none'],
  },
  crossOriginResourcePolicy: {
    header: 'cross-origin-resource-policy',
    default: 'same-origin',
    values: ['same-origin', 'same-site', 'cross-origin'],
  },
  frameOptions: { header: 'x-frame-options', default: 'DENY', values: ['DENY', 'SAMEORIGIN'] },
  contentSecurityPolicy: {
    header: 'content-security-policy',
    default: false,
    // Printable ASCII, no CR/LF, no quotes of the wrong kind: directives separated by ";".
    form: /^[\x20-\x7e]+$/,
  },
};

/**
 * A block of security headers: the preset (HSTS, `nosniff`, `referrer-policy: no-referrer`, COOP
 * and CORP `same-origin`, `x-frame-options: DENY`) with the given changes. Checked and rendered at
 * construction; every covered answer carries the same constant pairs. App-wide with
 * `secureHeaders(…)`, per mount with `{ secureHeaders: new SecureHeaders({ … }) }` (replacing the
 * app's block on that mount) or `{ secureHeaders: false }`.
 *
 * @example
 * const embeddable = new SecureHeaders({ frameOptions: false, crossOriginResourcePolicy: 'cross-origin' });
 */
export class SecureHeaders implements MountOptionValue {
  /** The options as given (the preset fills in the rest). */
  readonly options: SecureHeadersOptions;
  /** The rendered pairs, in a fixed order: what every covered answer carries. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly #contribution: RouteContribution;

  /**
   * @param options - changes to the preset; `false` leaves a header out
   * @throws WiringError - on an unknown option or a value the header does not take
   */
  constructor(options: SecureHeadersOptions = {}) {
    const where = 'new SecureHeaders(options)';
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        where,
        `expected an options object, got ${describeValue(options)}`,
        'new SecureHeaders({ frameOptions: "SAMEORIGIN" }), or nothing for the preset',
      );
    checkKnownKeys(where, options, Object.keys(FIELDS));
    const headers: [string, string][] = [];
    for (const [key, field] of Object.entries(FIELDS) as [Field, (typeof FIELDS)[Field]][]) {
      const given: unknown = options[key];
      const value = given === undefined ? field.default : given;
      if (value === false) continue;
      if (
        typeof value !== 'string' ||
        (field.values && !field.values.includes(value)) ||
        (field.form && !field.form.test(value))
      )
        throw wiringError(
          'API_WIRING_INVALID_HEADER',
          where,
          `${key} cannot be ${typeof value === 'string' ? JSON.stringify(value) : describeValue(value)}`,
          field.values
            ? `use one of ${field.values.map((v) => `'${v}'`).join(', ')}, or false to leave ${field.header} out`
            : `write a valid ${field.header} value, or false to leave it out`,
        );
      headers.push([field.header, value]);
    }
    this.options = options;
    this.headers = headers;
    this.#contribution = { order: 5, headers };
  }

  /** This block with some headers changed: `appHeaders.with({ frameOptions: 'SAMEORIGIN' })`. */
  with(changes: SecureHeadersOptions): SecureHeaders {
    return new SecureHeaders({ ...this.options, ...changes });
  }

  /** The contribution (one constant header block, shared by every route it covers). */
  get contribution(): RouteContribution {
    return this.#contribution;
  }

  /** The mount-option compiler: this block on the mount's routes (the app's block is left out there). */
  [mountOption](_ctx: MountContext): RouteContribution {
    return this.#contribution;
  }
}
