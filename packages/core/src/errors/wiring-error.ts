/**
 * A startup configuration mistake, raised before the app serves any request.
 *
 * The message names the class, the operation and the fix.
 *
 * @example
 * throw new WiringError('WidgetResource.readOne: path field "widget_id" has a default; remove it.');
 */
export class WiringError extends TypeError {
  override readonly name = 'WiringError';
}

/** Formats `Owner.operation: problem. Fix: fix` consistently for every wiring message. */
export function wiringMessage(where: string, problem: string, fix: string): string {
  return `${where}: ${problem}. Fix: ${fix}.`;
}
