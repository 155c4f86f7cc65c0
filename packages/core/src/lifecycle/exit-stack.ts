import { describeValue, wiringError } from '../contract/wiring-error';
/** Anything with a lifecycle: `Disposable`, `AsyncDisposable`, or an object with `close()`. */
export type Closeable = Disposable | AsyncDisposable | { close(): unknown } | { [Symbol.dispose](): void };

type Closer = () => unknown;

function closerOf(resource: unknown, where: string): Closer {
  const r = resource as Partial<Record<symbol | string, unknown>> | null;
  if (r && typeof r[Symbol.asyncDispose] === 'function')
    return () => (r[Symbol.asyncDispose] as () => unknown).call(r);
  if (r && typeof r[Symbol.dispose] === 'function') return () => (r[Symbol.dispose] as () => unknown).call(r);
  if (r && typeof r.close === 'function') return () => (r.close as () => unknown).call(r);
  throw wiringError(
    'API_WIRING_NOT_CLOSEABLE',
    where,
    'expected a resource with [Symbol.asyncDispose], [Symbol.dispose] or close(), ' +
      `got ${describeValue(resource)}; nothing could tear it down`,
    'pass the resource itself, or register a callback with defer(() => …)',
  );
}

/** A stack of teardown callbacks, unwound in reverse order; every callback runs even when one fails. */
export class ExitStack {
  readonly #closers: Closer[] = [];

  /** Registers a resource for teardown and returns it. */
  push<T>(resource: T, where = 'enter'): T {
    this.#closers.push(closerOf(resource, where));
    return resource;
  }

  /** Registers a plain teardown callback. */
  defer(fn: () => unknown): void {
    if (typeof fn !== 'function')
      throw wiringError(
        'API_WIRING_INVALID_ARGUMENT',
        'ExitStack.defer(fn)',
        `expected a teardown function, got ${describeValue(fn)}`,
        'defer(() => resource.close())',
      );
    this.#closers.push(fn);
  }

  get size(): number {
    return this.#closers.length;
  }

  /** Runs every callback in reverse order; the first failure is rethrown after all ran. */
  async unwind(): Promise<void> {
    let failure: { error: unknown } | undefined;
    while (this.#closers.length > 0) {
      const close = this.#closers.pop()!;
      try {
        await close();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/**
 * The app's exit stack, with a sync and an async face: `sync.push` and `async.push` register on one
 * stack, so teardown runs in exact reverse order of opening, sync and async interleaved.
 */
export class ExitStacks {
  readonly #stack = new ExitStack();

  /** Registers resources closed synchronously (the same stack as `async`). */
  get sync(): ExitStack {
    return this.#stack;
  }

  /** Registers resources closed asynchronously (the same stack as `sync`). */
  get async(): ExitStack {
    return this.#stack;
  }

  /** Unwinds every resource in reverse order of opening; the first failure is rethrown after all ran. */
  unwind(): Promise<void> {
    return this.#stack.unwind();
  }
}

/**
 * Base of a service factory: add `create*` methods that open services with `enter` / `aenter`.
 * Under an app, what it opens closes at app shutdown; on its own, use `Factory.open()`.
 *
 * @example
 * class Factory extends BaseFactory {
 *   createStore() { return this.enter(openDatabase(':memory:')); }
 * }
 * await using factory = await Factory.open();
 */
export abstract class BaseFactory {
  readonly #stacks: ExitStacks;

  constructor(stacks: ExitStacks) {
    this.#stacks = stacks;
  }

  /** Opens a sync-closed resource on the owner's exit stack. */
  protected enter<T extends Closeable>(resource: T): T {
    return this.#stacks.sync.push(resource, `${this.constructor.name}.enter`);
  }

  /** Opens an async resource (awaiting it first) on the owner's exit stack. */
  protected async aenter<T extends Closeable>(resource: T | Promise<T>): Promise<T> {
    return this.#stacks.async.push(await resource, `${this.constructor.name}.aenter`);
  }

  /**
   * Builds the factory on a fresh pair of stacks. Use with `await using`, or pass a callback:
   * the stack unwinds when it settles (in exact reverse order of opening), even when it throws.
   */
  static async open<F extends BaseFactory>(this: new (stacks: ExitStacks) => F): Promise<F & AsyncDisposable>;
  static async open<F extends BaseFactory, R>(
    this: new (stacks: ExitStacks) => F,
    scope: (factory: F) => R | Promise<R>,
  ): Promise<R>;
  static async open<F extends BaseFactory, R>(
    this: new (stacks: ExitStacks) => F,
    scope?: (factory: F) => R | Promise<R>,
  ): Promise<(F & AsyncDisposable) | R> {
    const stacks = new ExitStacks();
    const factory = new this(stacks);
    if (scope) {
      try {
        return await scope(factory);
      } finally {
        await stacks.unwind();
      }
    }
    Object.defineProperty(factory, Symbol.asyncDispose, { value: () => stacks.unwind(), configurable: true });
    return factory as F & AsyncDisposable;
  }
}

/** A factory class as an app builds it. */
export type FactoryClass<F> = new (stacks: ExitStacks) => F;
