import { describe, expect, it } from 'vitest';
import { WidgetStore } from '../src/services/widget-store';

describe('WidgetStore.list', () => {
  it('lists in creation order, widgets created in the same millisecond included', () => {
    const store = new WidgetStore(':memory:');
    // Two hundred inserts take a few milliseconds: most share one with a neighbour, whose random id
    // would have decided their order.
    const names = Array.from({ length: 200 }, (_, i) => `w${i}`);
    for (const name of names) store.create({ name, priceCents: 1 });
    expect(store.list(200, 0).map((w) => w.name)).toEqual(names);
    expect(store.list(3, 10).map((w) => w.name)).toEqual(['w10', 'w11', 'w12']);
  });
});
