import { describe, expect, it } from 'vitest';
import { FakeTarget, memoryLogger, tick } from '../../test/fakes';
import { Pump } from '../pump/pump';
import { StreamRegistry } from './registry';

async function openPump(teardown: () => Promise<void>): Promise<{ pump: Pump; target: FakeTarget }> {
  const target = new FakeTarget();
  const pump = new Pump(target, { encode: (x) => `${String(x)}\n`, log: memoryLogger(), label: 'GET /s' });
  async function* lifecycle() {
    yield (async function* () {
      yield 'a';
      await new Promise(() => undefined);
    })();
    await teardown();
  }
  await pump.open(lifecycle());
  void pump.run();
  await tick();
  return { pump, target };
}

describe('StreamRegistry.stopAll', () => {
  it('ends every open stream and waits for their teardown', async () => {
    const registry = new StreamRegistry();
    const torn: number[] = [];
    const a = await openPump(async () => void torn.push(1));
    const b = await openPump(async () => void torn.push(2));
    registry.add(a.pump);
    registry.add(b.pump);
    await registry.stopAll(1000);
    expect(torn.sort()).toEqual([1, 2]);
    expect(a.target.ended && b.target.ended).toBe(true);
  });

  it('gives up after the cap on a teardown that hangs, and says how many', async () => {
    const registry = new StreamRegistry();
    const ok = await openPump(async () => undefined);
    const stuck = await openPump(() => new Promise(() => undefined));
    registry.add(ok.pump);
    registry.add(stuck.pump);
    const capped: number[] = [];
    const began = performance.now();
    await registry.stopAll(50, (pending) => capped.push(pending));
    expect(performance.now() - began).toBeLessThan(500);
    expect(capped).toEqual([1]);
    expect(ok.target.ended).toBe(true);
  });
});
