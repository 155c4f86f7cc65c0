import { BaseFactory, ExitStacks, type FactoryClass } from '@api/core';
import { wrongArgument } from '../arguments/arguments';

/** A factory class that `FactoryHarness` can build: a `BaseFactory` subclass. */
export type OpenableFactory<TFactory extends BaseFactory> = FactoryClass<TFactory>;

/**
 * Opens a service factory outside any app, for tests of the services it builds (the spec's
 * synchronous bridge over `BaseFactory.open()`): the factory is built at once on a fresh pair of
 * exit stacks, and `close()` — or the end of an `await using` scope — unwinds everything its
 * `create*` methods opened (async resources first, each stack in reverse order).
 *
 * @example
 * await using harness = new FactoryHarness(Factory);
 * const store = harness.factory.createStore();
 * const client = await harness.run(harness.factory.createHttpClient());
 */
export class FactoryHarness<TFactory extends BaseFactory> implements AsyncDisposable {
  readonly #name: string;
  readonly #stacks = new ExitStacks();
  readonly #factory: TFactory;
  #closing: Promise<void> | undefined;

  /**
   * @param factoryClass - The factory class (not an instance); built immediately.
   * @throws WiringError - When `factoryClass` is not a `BaseFactory` subclass.
   */
  constructor(factoryClass: OpenableFactory<TFactory>) {
    checkFactoryClass(factoryClass);
    this.#name = factoryClass.name;
    this.#factory = new factoryClass(this.#stacks);
  }

  /**
   * Builds a harness (kept for symmetry with `Factory.open()`).
   *
   * @param factoryClass - The factory class.
   * @throws WiringError - As the constructor does (a rejected promise).
   * @example
   * await using harness = await FactoryHarness.open(Factory);
   */
  static async open<TFactory extends BaseFactory>(
    factoryClass: OpenableFactory<TFactory>,
  ): Promise<FactoryHarness<TFactory>> {
    return new FactoryHarness(factoryClass);
  }

  /** Resolves to the harness (the factory is built in the constructor). */
  async start(): Promise<this> {
    if (this.#closing) throw new Error(`FactoryHarness(${this.#name}): closed; build a new harness`);
    return this;
  }

  /** The built factory. */
  get factory(): TFactory {
    if (this.#closing) throw new Error(`FactoryHarness(${this.#name}): closed`);
    return this.#factory;
  }

  /**
   * Awaits an async `create*` call (a promise), or calls `work` with the factory and awaits
   * its result.
   *
   * @param work - A promise, or a function of the factory.
   * @example
   * const client = await harness.run((f) => f.createHttpClient());
   */
  async run<R>(work: Promise<R> | ((factory: TFactory) => R | Promise<R>)): Promise<R> {
    return typeof work === 'function' ? work(this.factory) : work;
  }

  /** Unwinds everything the factory opened (async first, each stack in reverse). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#stacks.unwind();
    return this.#closing;
  }

  /** Same as `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** A `WiringError` naming what was expected when `factoryClass` is not a `BaseFactory` subclass. */
function checkFactoryClass(factoryClass: unknown): void {
  if (typeof factoryClass === 'function' && factoryClass.prototype instanceof BaseFactory) return;
  const instance = factoryClass instanceof BaseFactory;
  throw wrongArgument(
    'FactoryHarness',
    'a factory class (a subclass of BaseFactory)',
    factoryClass,
    instance
      ? `pass the class itself: \`new FactoryHarness(${factoryClass.constructor.name})\`; the harness builds it`
      : 'declare `class Factory extends BaseFactory { … }` and pass `Factory`',
  );
}
