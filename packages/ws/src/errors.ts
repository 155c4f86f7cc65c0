import { HTTPError } from '@api/core';

/**
 * 426: a plain HTTP request reached a WebSocket route. Sent with `upgrade: websocket`.
 *
 * @example
 * // GET /chat without `Upgrade: websocket` →
 * // 426 {"type":"upgrade-required","title":"Upgrade required","status":426}
 */
export class UpgradeRequiredError extends HTTPError.define({
  type: 'upgrade-required',
  title: 'Upgrade required',
  status: 426,
}) {}
