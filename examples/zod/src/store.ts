import { randomUUID } from 'node:crypto';
import type { Widget } from './models';

/** Raised when a unique widget name is taken (translated to 409 by an exception handler). */
export class DuplicateNameError extends Error {
  constructor(readonly widgetName: string) {
    super(`a widget named ${JSON.stringify(widgetName)} already exists`);
  }
}

/** Widgets in memory, in creation order, with unique names (the demo keeps them in SQLite). */
export class WidgetStore {
  readonly #widgets = new Map<string, Widget>();

  #checkName(name: string, id?: string): void {
    for (const w of this.#widgets.values())
      if (w.name === name && w.id !== id) throw new DuplicateNameError(name);
  }

  create(input: { name: string; priceCents: number }): Widget {
    this.#checkName(input.name);
    const widget = { id: randomUUID(), ...input };
    this.#widgets.set(widget.id, widget);
    return widget;
  }

  list(limit: number, offset: number): Widget[] {
    return [...this.#widgets.values()].slice(offset, offset + limit);
  }

  get count(): number {
    return this.#widgets.size;
  }

  get(id: string): Widget | undefined {
    return this.#widgets.get(id);
  }

  replace(id: string, input: { name: string; priceCents: number }): Widget | undefined {
    if (!this.#widgets.has(id)) return undefined;
    this.#checkName(input.name, id);
    const widget = { id, ...input };
    this.#widgets.set(id, widget);
    return widget;
  }

  update(
    id: string,
    patch: { name?: string | undefined; priceCents?: number | undefined },
  ): Widget | undefined {
    const old = this.#widgets.get(id);
    if (!old) return undefined;
    if (patch.name !== undefined) this.#checkName(patch.name, id);
    const widget = {
      id,
      name: patch.name ?? old.name,
      priceCents: patch.priceCents ?? old.priceCents,
    };
    this.#widgets.set(id, widget);
    return widget;
  }

  delete(id: string): boolean {
    return this.#widgets.delete(id);
  }
}
