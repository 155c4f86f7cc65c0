import { describe, expect, it } from 'vitest';
import { BaseFactory, ExitStacks, WiringError } from '@api/core';
import { FactoryHarness } from './factory-harness';
import { thrownWiringError } from '../../test/apps';

function factoryClass(events: string[]) {
  return class Factory extends BaseFactory {
    createSync(): { name: string } {
      events.push('open sync');
      return this.enter({ name: 'sync', [Symbol.dispose]: () => void events.push('close sync') });
    }

    async createAsync(name: string): Promise<{ name: string }> {
      await Promise.resolve();
      events.push(`open ${name}`);
      return this.aenter({ name, close: async () => void events.push(`close ${name}`) });
    }
  };
}

describe('FactoryHarness', () => {
  it('opens the factory, awaits async create calls, and unwinds in reverse, async first', async () => {
    const events: string[] = [];
    const harness = await FactoryHarness.open(factoryClass(events));
    expect(harness.factory.createSync().name).toBe('sync');
    const a = await harness.run(harness.factory.createAsync('a'));
    const b = await harness.run((f) => f.createAsync('b'));
    expect([a.name, b.name]).toEqual(['a', 'b']);
    await harness.close();
    await harness.close();
    expect(events).toEqual(['open sync', 'open a', 'open b', 'close b', 'close a', 'close sync']);
  });

  it('works with await using', async () => {
    const events: string[] = [];
    {
      await using harness = await FactoryHarness.open(factoryClass(events));
      await harness.run(harness.factory.createAsync('x'));
    }
    expect(events).toEqual(['open x', 'close x']);
  });

  it('exposes the factory at once, runs work against it, and refuses it after closing', async () => {
    const events: string[] = [];
    const harness = new FactoryHarness(factoryClass(events));
    expect(events).toEqual([]);
    harness.factory.createSync();
    expect(events).toEqual(['open sync']);
    expect(await harness.run((f) => f.createSync().name)).toBe('sync');
    await harness.close();
    expect(() => harness.factory).toThrow(/closed/);
    await expect(harness.start()).rejects.toThrow(/closed/);
    expect(events).toEqual(['open sync', 'open sync', 'close sync', 'close sync']);
  });

  it('closes a harness that never opened without error', async () => {
    await expect(new FactoryHarness(factoryClass([])).close()).resolves.toBeUndefined();
  });
});

describe('FactoryHarness arguments', () => {
  const build = (factoryClass: unknown): unknown =>
    new (FactoryHarness as unknown as new (factoryClass: unknown) => unknown)(factoryClass);
  const thrown = thrownWiringError;

  it('refuses a factory instance in place of its class, naming the fix', () => {
    const Factory = factoryClass([]);
    expect(thrown(() => build(new Factory(new ExitStacks()))).message).toBe(
      'FactoryHarness: expected a factory class (a subclass of BaseFactory), got an instance of Factory. Fix: pass the class itself: `new FactoryHarness(Factory)`; the harness builds it.',
    );
  });

  it.each([
    ['undefined', undefined, 'undefined'],
    ['a class that is not a factory', class Store {}, 'the class Store'],
    ['a function returning a factory', () => factoryClass([]), 'a function'],
    ['an object', { createStore() {} }, 'an object'],
  ])('refuses %s', (_label, value, got) => {
    expect(thrown(() => build(value)).message).toBe(
      `FactoryHarness: expected a factory class (a subclass of BaseFactory), got ${got}. Fix: declare \`class Factory extends BaseFactory { … }\` and pass \`Factory\`.`,
    );
  });

  it('rejects FactoryHarness.open with the same WiringError', async () => {
    const open = FactoryHarness.open as unknown as (factoryClass: unknown) => Promise<unknown>;
    await expect(open(null)).rejects.toBeInstanceOf(WiringError);
    await expect(open(null)).rejects.toThrow(/got null/);
  });
});
