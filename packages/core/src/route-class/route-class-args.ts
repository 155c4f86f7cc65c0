import { describeValue, wiringError } from '../contract/wiring-error';
import { peerSyntax } from '../routing/peer-syntax';

/**
 * Checks the arguments of `Resource(path, options)` / `Endpoint(path, options)` at declaration:
 * a mount path starting with "/", no other router's syntax (`:id`, `*`, `{id?}`), snake_case
 * slots, and only the `name`, `ref` and `meta` options,
 * well-formed. Returns the options as a record (the `name` option is checked where it is applied).
 *
 * @param name - `'Resource'` or `'Endpoint'`, for the messages
 */
export function checkRouteClassArgs(name: string, path: unknown, options: unknown): Record<string, unknown> {
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw wiringError(
      'API_WIRING_INVALID_PATH',
      `${name}(${JSON.stringify(path) ?? String(path)})`,
      'expected a mount path starting with "/"',
      `write ${name}('/widgets')`,
    );
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `${name}('${path}', …)`,
      'expected an options object ({ name?, ref?, meta? })',
      "pass { ref: 'name' } or nothing",
    );
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given))
    if (key !== 'name' && key !== 'ref' && key !== 'meta')
      throw wiringError(
        'API_WIRING_UNKNOWN_OPTION',
        `${name}('${path}', …)`,
        `unknown option "${key}"`,
        'use only name, ref, meta',
      );
  if (given.ref !== undefined && (typeof given.ref !== 'string' || !/^[A-Za-z_][\w-]*$/.test(given.ref)))
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `${name}('${path}', { ref })`,
      'ref must be a name without dots ' +
        `(${typeof given.ref === 'string' ? JSON.stringify(given.ref) : describeValue(given.ref)})`,
      "ref: 'widgets', then Location.fromRef('widgets.readOne')",
    );
  if (
    given.meta !== undefined &&
    (typeof given.meta !== 'object' || given.meta === null || Array.isArray(given.meta))
  )
    throw wiringError(
      'API_WIRING_INVALID_ARGUMENT',
      `${name}('${path}', { meta })`,
      'meta must be an object ({ tags?, summary?, description?, ' +
        `responses?, exceptions? }), got ${describeValue(given.meta)}`,
      "meta: { tags: ['widgets'] }",
    );
  for (const segment of path.split('/')) {
    const peer = peerSyntax(segment);
    if (peer) throw wiringError('API_WIRING_INVALID_PATH', `${name}('${path}')`, peer.problem, peer.fix);
  }
  for (const slot of path.match(/\{[^}]*\}/g) ?? []) {
    // An empty "{}" is reported at mount, where the error can name the class.
    if (slot !== '{}' && !/^\{[a-z_][a-z0-9_]*\}$/.test(slot))
      throw wiringError(
        'API_WIRING_SLOT_NAME',
        `${name}('${path}')`,
        `slot "${slot}" is not snake_case`,
        'name slots like {widget_id}',
      );
  }
  return given;
}
