// Compile-time rejections that say what to do. A check that fails turns a parameter type into (or
// intersects it with) `WiringTypeError<'@api: <rule>. Fix: <fix>'>`, so the rule and the fix are
// what tsc prints, instead of "not assignable to type 'never'" or "Expected 2 arguments". Messages
// are ASCII (tsc escapes anything else: an en dash prints as \u2013). This module imports nothing,
// so any file may use it without an import cycle.

declare const typeError: unique symbol;

/**
 * A type no value has, carrying the message tsc shows when a wiring is rejected at compile time.
 * tsc prints it as `WiringTypeError<"@api: <rule>. Fix: <fix>">`.
 *
 * @example
 * type Check<T extends number> = T extends ErrorStatus
 *   ? unknown
 *   : WiringTypeError<`@api: ${T} is not 400-599. Fix: ...`>;
 */
export interface WiringTypeError<TMessage extends string> {
  readonly [typeError]: TMessage;
}

/**
 * `'@api: <rule>. Fix: <fix>.'` from its parts (the compile-time twin of a `WiringError`'s
 * message), so a long message is written under the line limit: a part too long for one line is a
 * list of strings, joined.
 *
 * @example
 * type E = WiringTypeError<TypeErrorMessage<'path slots are snake_case', 'name slots like {widget_id}'>>;
 */
export type TypeErrorMessage<
  TRule extends string | readonly string[],
  TFix extends string | readonly string[],
> = `@api: ${Joined<TRule>}. Fix: ${Joined<TFix>}.`;

type Joined<T extends string | readonly string[]> = T extends string
  ? T
  : T extends readonly [infer H extends string, ...infer R extends readonly string[]]
    ? `${H}${Joined<R>}`
    : '';
