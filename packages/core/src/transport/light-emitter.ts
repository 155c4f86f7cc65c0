type Listener = (...args: unknown[]) => void;

/** A `once` wrapper: it removes itself before it runs; `listener` is what the caller added. */
interface OnceWrapper extends Listener {
  listener: Listener;
}

/**
 * The event surface of node's `EventEmitter`, as a fetch response needs it, for a fraction of its
 * cost per object (Bun's `EventEmitter` constructor and `on` were ~8% of a request's CPU): no
 * listener cap, no `newListener`/`removeListener` events, no capture of rejections, and an
 * `error` with no listener is dropped (nothing here emits one). A node stream piped into it
 * (`Readable.pipe`) finds every method it calls.
 */
export class LightEmitter implements NodeJS.EventEmitter {
  /** The listeners by event; undefined while there is none, or only the one in the slot below. */
  #events: Record<string | symbol, Listener[]> | undefined = undefined;
  /**
   * The first listener added, and its event, kept without a record or an array (a response served
   * by core has one, the in-flight count's 'close'); moved into `#events` when a second comes.
   * Used only while `#events` is undefined.
   */
  #oneEvent: string | symbol | undefined = undefined;
  #one: Listener | undefined = undefined;

  on(event: string | symbol, listener: Listener): this {
    if (this.#events === undefined && this.#one === undefined) {
      this.#oneEvent = event;
      this.#one = listener;
      return this;
    }
    (this.#spill()[event] ??= []).push(listener);
    return this;
  }

  /** The listeners by event, the slot's moved in. */
  #spill(): Record<string | symbol, Listener[]> {
    const events = (this.#events ??= Object.create(null) as Record<string | symbol, Listener[]>);
    if (this.#one !== undefined) {
      events[this.#oneEvent!] = [this.#one];
      this.#one = undefined;
      this.#oneEvent = undefined;
    }
    return events;
  }

  addListener(event: string | symbol, listener: Listener): this {
    return this.on(event, listener);
  }

  prependListener(event: string | symbol, listener: Listener): this {
    (this.#spill()[event] ??= []).unshift(listener);
    return this;
  }

  once(event: string | symbol, listener: Listener): this {
    return this.on(event, this.#wrap(event, listener));
  }

  prependOnceListener(event: string | symbol, listener: Listener): this {
    return this.prependListener(event, this.#wrap(event, listener));
  }

  #wrap(event: string | symbol, listener: Listener): OnceWrapper {
    const wrapper = ((...args: unknown[]): void => {
      this.off(event, wrapper);
      listener.apply(this, args);
    }) as OnceWrapper;
    wrapper.listener = listener;
    return wrapper;
  }

  off(event: string | symbol, listener: Listener): this {
    const one = this.#one;
    if (one !== undefined) {
      if (
        this.#oneEvent === event &&
        (one === listener || (one as Partial<OnceWrapper>).listener === listener)
      ) {
        this.#one = undefined;
        this.#oneEvent = undefined;
      }
      return this;
    }
    const list = this.#events?.[event];
    if (list === undefined) return this;
    // The last one added goes first, as node removes it.
    for (let i = list.length - 1; i >= 0; i--) {
      const l = list[i]!;
      if (l === listener || (l as Partial<OnceWrapper>).listener === listener) {
        list.splice(i, 1);
        break;
      }
    }
    return this;
  }

  removeListener(event: string | symbol, listener: Listener): this {
    return this.off(event, listener);
  }

  removeAllListeners(event?: string | symbol): this {
    if (event === undefined || this.#oneEvent === event) {
      this.#one = undefined;
      this.#oneEvent = undefined;
    }
    if (event === undefined) this.#events = undefined;
    else if (this.#events !== undefined) delete this.#events[event];
    return this;
  }

  emit(event: string | symbol, ...args: unknown[]): boolean {
    const one = this.#one;
    if (one !== undefined) {
      if (this.#oneEvent !== event) return false;
      one.apply(this, args);
      return true;
    }
    const list = this.#events?.[event];
    if (list === undefined || list.length === 0) return false;
    if (list.length === 1) list[0]!.apply(this, args);
    // A copy: a listener may add or remove listeners of this event while it runs.
    else for (const listener of list.slice()) listener.apply(this, args);
    return true;
  }

  listenerCount(event: string | symbol, listener?: Listener): number {
    this.#spill();
    const list = this.#events?.[event];
    if (list === undefined) return 0;
    if (listener === undefined) return list.length;
    return list.filter((l) => l === listener || (l as Partial<OnceWrapper>).listener === listener).length;
  }

  listeners(event: string | symbol): Listener[] {
    this.#spill();
    return (this.#events?.[event] ?? []).map((l) => (l as Partial<OnceWrapper>).listener ?? l);
  }

  rawListeners(event: string | symbol): Listener[] {
    this.#spill();
    return [...(this.#events?.[event] ?? [])];
  }

  eventNames(): (string | symbol)[] {
    const events = this.#one === undefined ? this.#events : this.#spill();
    return events === undefined ? [] : Reflect.ownKeys(events).filter((name) => events[name]!.length > 0);
  }

  /** No cap: a response has few listeners, all core's own or a pipe's. */
  setMaxListeners(_n: number): this {
    return this;
  }

  getMaxListeners(): number {
    return 0;
  }
}
