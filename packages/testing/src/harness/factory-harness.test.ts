import { describe, expect, it } from 'vitest';
import { BaseFactory } from '@api/core';
import { FactoryHarness } from './factory-harness';

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
