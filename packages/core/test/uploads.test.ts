import { describe, expect, it } from 'vitest';
import { Uploads, type Upload } from '../src/binding/body';

const item = (): Upload => ({ readingAt: -1 });

describe('Uploads (requests still reading their body)', () => {
  it('lists and unlists in any order, keeping every place right', () => {
    const list = new Uploads();
    const [a, b, c, d] = [item(), item(), item(), item()];
    for (const x of [a, b, c, d]) list.add(x);
    list.add(b); // already listed: no second place
    expect(list.size).toBe(4);
    list.delete(b); // the last item takes its place
    expect([a.readingAt, b.readingAt, c.readingAt, d.readingAt]).toEqual([0, -1, 2, 1]);
    list.delete(b); // not listed: nothing happens
    list.delete(d);
    list.delete(a);
    expect(list.size).toBe(1);
    expect(c.readingAt).toBe(0);
    const all = list.takeAll();
    expect(all).toEqual([c]);
    expect(c.readingAt).toBe(-1);
    expect(list.size).toBe(0);
  });

  it('ignores an item listed in another list', () => {
    const one = new Uploads();
    const other = new Uploads();
    const [a, b] = [item(), item()];
    one.add(a);
    other.add(b);
    one.delete(b); // b's place (0) is a's in this list
    expect(one.size).toBe(1);
    expect(a.readingAt).toBe(0);
  });
});
