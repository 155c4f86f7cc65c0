/**
 * Throws a `TypeError` naming the header when `value` contains CR, LF or NUL (header injection).
 *
 * The message never includes the value itself.
 *
 * @param name - The header name, for the message.
 * @param value - The value about to be sent.
 * @example
 * assertHeaderValue('location', '/widgets/1'); // ok
 * assertHeaderValue('location', '/a\r\nset-cookie: x=1'); // throws TypeError
 */
export function assertHeaderValue(name: string, value: string): void {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x0d || c === 0x0a || c === 0x00) {
      throw new TypeError(`Header "${name}" value must not contain CR, LF or NUL characters`);
    }
  }
}
