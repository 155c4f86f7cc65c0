import { BaseFactory } from '@api/core';
import { WidgetStore } from './services/widget-store';

/** Builds the demo's services; anything with a lifecycle opens on the owner's exit stacks. */
export class Factory extends BaseFactory {
  /** The widget store; `DEMO_DB` picks the file (`:memory:` for tests), default `./data/widgets.db`. */
  createWidgetStore(file = process.env.DEMO_DB ?? './data/widgets.db'): WidgetStore {
    return this.enter(new WidgetStore(file));
  }
}
