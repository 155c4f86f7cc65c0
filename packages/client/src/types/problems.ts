// The error bodies an @api server sends, as types: read from an error class's static facts
// (`status`, `type`, `paramsSchema`, `bodySchema`) through `import type`, never from its code.
import type * as v from 'valibot';
import type {
  AuthenticationRequiredError,
  ErrorReasonValue,
  InternalServerError,
  MalformedRequestError,
  NotFoundError,
  PayloadTooLargeError,
  StandardSchemaV1,
  UnsupportedMediaTypeError,
  ValidationFailedError,
} from '@api/core';

/** An RFC 9457 Problem body: `type` is the stable code to branch on, never `title` or `detail`. */
export interface Problem<TStatus extends number = number, TType extends string = string> {
  readonly type: TType;
  readonly title: string;
  readonly status: TStatus;
  /** The error class's documentation URL, when it declares one. */
  readonly docs?: string;
}

/** The Problem of a parameterized error (`DataclassHTTPError`): a rendered `detail` and typed `params`. */
export interface ParamsProblem<TStatus extends number, TType extends string, TParams>
  extends Problem<TStatus, TType> {
  readonly detail: string;
  readonly params: TParams;
}

/**
 * The body an error class renders: its own body schema (`StructHTTPError`), or its Problem; a
 * schema's output type (valibot or a Standard Schema: zod, ArkType).
 */
export type ErrorBodyOf<TClass> = TClass extends { readonly bodySchema: infer B extends v.GenericSchema }
  ? v.InferOutput<B>
  : TClass extends { readonly bodySchema: infer B extends StandardSchemaV1 }
    ? StandardSchemaV1.InferOutput<B>
    : TClass extends {
          readonly paramsSchema: infer P extends v.GenericSchema | StandardSchemaV1;
          readonly type: infer T extends string;
          readonly status: infer S extends number;
        }
      ? ParamsProblem<S, T, P extends v.GenericSchema ? v.InferOutput<P> : StandardSchemaV1.InferOutput<P>>
      : TClass extends { readonly type: infer T extends string; readonly status: infer S extends number }
        ? Problem<S, T>
        : never;

/** The status an error class declares (a literal when it was defined with one). */
export type ErrorStatusOf<TClass> = TClass extends { readonly status: infer S extends number } ? S : never;

/** 400 `malformed-request`: a malformed JSON body, a bad query, header or cookie value, a broken form. */
export type MalformedRequestProblem = ErrorBodyOf<typeof MalformedRequestError>;
/** 422 `validation-failed`: a well-formed body that fails its schema (`params.issues` lists every field). */
export type ValidationFailedProblem = ErrorBodyOf<typeof ValidationFailedError>;
/** 404 `not-found`: a path value that fails conversion (no detail). */
export type NotFoundProblem = ErrorBodyOf<typeof NotFoundError>;
/** 401 `authentication-required`: an authenticated mount called without credentials. */
export type AuthenticationRequiredProblem = ErrorBodyOf<typeof AuthenticationRequiredError>;
/** 413 `payload-too-large`: a body over the server's limit. */
export type PayloadTooLargeProblem = ErrorBodyOf<typeof PayloadTooLargeError>;
/** 415 `unsupported-media-type`. */
export type UnsupportedMediaTypeProblem = ErrorBodyOf<typeof UnsupportedMediaTypeError>;
/** 500 `internal-server-error`: no message, no stack. */
export type InternalServerErrorProblem = ErrorBodyOf<typeof InternalServerError>;

/** The `params` of 400 and 422 Problems: the first failing field, then every issue. */
export type ErrorReason = ErrorReasonValue;

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
/** Every error status, 400 to 599, as literal types. */
export type ErrorStatus = `${4 | 5}${Digit}${Digit}` extends `${infer N extends number}` ? N : never;

/**
 * The error statuses HTTP registers (the IANA registry, 418 included): what the "any other status"
 * member of an answer carries, less the route's declared ones. A short list keeps tsc's work per
 * distinct error set small (`ErrorStatus` has 200 members).
 */
export type OtherStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 406
  | 407
  | 408
  | 409
  | 410
  | 411
  | 412
  | 413
  | 414
  | 415
  | 416
  | 417
  | 418
  | 421
  | 422
  | 423
  | 424
  | 425
  | 426
  | 428
  | 429
  | 431
  | 451
  | 500
  | 501
  | 502
  | 503
  | 504
  | 505
  | 506
  | 507
  | 508
  | 510
  | 511;
