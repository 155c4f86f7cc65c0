import { MalformedRequestError } from '../errors/builtin';

/**
 * The 400 for one bad request field, in the shape core's binders send (`ErrorReason`: the
 * `reason` names the place, `issues` lists it): the one-liner for an extension that reads a
 * header, a cookie or a query parameter itself. Never put the submitted value in `message`.
 *
 * @param path - Where the problem is, as core spells it: `header authorization`, `query parameter page`, `$.items[0]`.
 * @param message - What is wrong, e.g. `Invalid value` or `Expected one value, got 2`.
 * @example
 * throw badRequest('header sec-websocket-key', 'Invalid value');
 */
export function badRequest(path: string, message: string): MalformedRequestError {
  return new MalformedRequestError({ reason: `${message} at \`${path}\``, issues: [{ path, message }] });
}
