import { describe, expect, it } from 'vitest';
import { deferred, FakeTarget, memoryLogger, tick } from '../../test/fakes';
import { Pump, type PumpOptions } from './pump';

const text = (item: unknown): string => `${String(item)}\n`;

function pump(target: FakeTarget, options: Partial<PumpOptions> = {}) {
  const log = memoryLogger();
  const p = new Pump(target, { encode: text, log, label: 'GET /s', ...options });
  return { pump: p, log };
}

async function* items(...values: unknown[]): AsyncGenerator<unknown> {
  for (const value of values) yield value;
}

describe('Pump', () => {
  it('writes every item in order, then ends the response', async () => {
    const target = new FakeTarget();
    const { pump: p, log } = pump(target);
    expect(await p.open(items('a', 'b', 'c'))).toBe(true);
    expect(target.chunks).toEqual([]); // nothing is written before the head
    await p.run();
    expect(target.text).toBe('a\nb\nc\n');
    expect(target.ended).toBe(true);
    expect(target.destroyed).toBe(false);
    expect(log.lines).toEqual([]);
  });

  it('ends an empty stream properly', async () => {
    const target = new FakeTarget();
    const { pump: p } = pump(target);
    expect(await p.open(items())).toBe(true);
    await p.run();
    expect(target.chunks).toEqual([]);
    expect(target.ended).toBe(true);
  });

  it('runs a lifecycle generator: setup and the first item before open resolves, teardown before the end', async () => {
    const target = new FakeTarget();
    const events: string[] = [];
    async function* lifecycle() {
      events.push('setup');
      yield (async function* () {
        events.push('first');
        yield 'x';
        events.push('second');
        yield 'y';
      })();
      events.push('teardown');
    }
    const { pump: p } = pump(target);
    target.on('close', () => events.push('end'));
    expect(await p.open(lifecycle())).toBe(true);
    expect(events).toEqual(['setup', 'first']);
    await p.run();
    expect(events).toEqual(['setup', 'first', 'second', 'teardown', 'end']);
    expect(target.text).toBe('x\ny\n');
  });

  it("with the 'setup' gate, opens a lifecycle generator on its setup alone and flushes the head", async () => {
    const target = new FakeTarget();
    const events: string[] = [];
    const first = deferred();
    async function* lifecycle() {
      events.push('setup');
      yield (async function* () {
        events.push('first');
        await first.promise;
        yield 'x';
      })();
      events.push('teardown');
    }
    const { pump: p, log } = pump(target, { gate: 'setup' });
    expect(await p.open(lifecycle())).toBe(true);
    expect(events).toEqual(['setup']); // the first item is not pulled before the head
    const done = p.run();
    expect(target.headsFlushed).toBe(1); // the head goes out now, with no body yet
    await tick();
    expect(events).toEqual(['setup', 'first']);
    expect(target.chunks).toEqual([]);
    first.resolve();
    await done;
    expect(target.text).toBe('x\n');
    expect(events).toEqual(['setup', 'first', 'teardown']);
    expect(target.ended).toBe(true);
    expect(log.lines).toEqual([]);
  });

  it("with the 'setup' gate, still awaits a plain iterable's first item; the head goes out with it", async () => {
    const target = new FakeTarget();
    const { pump: p } = pump(target, { gate: 'setup' });
    expect(await p.open(items('a'))).toBe(true);
    await p.run();
    expect(target.headsFlushed).toBe(0);
    expect(target.text).toBe('a\n');
  });

  it("with the 'setup' gate, a failing first item is a mid-stream failure: logged, cut, teardown ran", async () => {
    const target = new FakeTarget();
    let torn = false;
    async function* lifecycle() {
      try {
        // eslint-disable-next-line require-yield -- the first item fails
        yield (async function* () {
          throw new Error('feed broke');
        })();
      } finally {
        torn = true;
      }
    }
    const { pump: p, log } = pump(target, { gate: 'setup' });
    expect(await p.open(lifecycle())).toBe(true);
    await p.run();
    expect(torn).toBe(true);
    expect(target.ended).toBe(false);
    expect(target.destroyed).toBe(true);
    expect(log.lines.map((l) => `${l.level}: ${l.message}`)).toEqual([
      'error: error streaming response for GET /s',
    ]);
  });

  it('rejects open when setup fails, after its finally ran, writing nothing', async () => {
    const target = new FakeTarget();
    let cleaned = false;
    // eslint-disable-next-line require-yield -- setup fails before the yield
    async function* lifecycle(): AsyncGenerator<AsyncIterable<unknown>> {
      try {
        throw new Error('no database');
      } finally {
        cleaned = true;
      }
    }
    const { pump: p } = pump(target);
    await expect(p.open(lifecycle())).rejects.toThrow('no database');
    expect(cleaned).toBe(true);
    expect(target.chunks).toEqual([]);
  });

  it('rejects open when the first item fails, after the lifecycle teardown ran', async () => {
    const target = new FakeTarget();
    let torn = false;
    async function* lifecycle() {
      // eslint-disable-next-line require-yield -- the first item fails
      yield (async function* () {
        throw new Error('first item');
      })();
      torn = true;
    }
    const { pump: p } = pump(target);
    await expect(p.open(lifecycle())).rejects.toThrow('first item');
    expect(torn).toBe(true);
  });

  it('rejects open when the first item cannot be encoded, closing the iterator first', async () => {
    const target = new FakeTarget();
    let closed = false;
    async function* source() {
      try {
        yield 1;
      } finally {
        closed = true;
      }
    }
    const { pump: p } = pump(target, {
      encode: () => {
        throw new TypeError('bad item');
      },
    });
    await expect(p.open(source())).rejects.toThrow('bad item');
    expect(closed).toBe(true);
  });

  it('rejects open for a stream that is not async iterable', async () => {
    const { pump: p } = pump(new FakeTarget());
    await expect(p.open(['a'])).rejects.toThrow(/async iterable/);
  });

  it('logs a mid-stream failure once, cuts the connection and still tears down', async () => {
    const target = new FakeTarget();
    const failure = new Error('boom');
    let torn = false;
    async function* lifecycle() {
      yield (async function* () {
        yield 'a';
        throw failure;
      })();
      torn = true;
    }
    const { pump: p, log } = pump(target);
    await p.open(lifecycle());
    await p.run();
    expect(target.text).toBe('a\n');
    expect(target.destroyed).toBe(true);
    expect(target.ended).toBe(false);
    expect(torn).toBe(true);
    expect(log.lines).toEqual([
      { level: 'error', message: 'error streaming response for GET /s', error: failure },
    ]);
  });

  it('closes the iterator when a later item cannot be encoded', async () => {
    const target = new FakeTarget();
    let closed = false;
    async function* source() {
      try {
        yield 'ok';
        yield 'bad';
        yield 'never';
      } finally {
        closed = true;
      }
    }
    const { pump: p, log } = pump(target, {
      encode: (item) => {
        if (item === 'bad') throw new TypeError('cannot send');
        return text(item);
      },
    });
    await p.open(source());
    await p.run();
    expect(target.text).toBe('ok\n');
    expect(closed).toBe(true);
    expect(target.destroyed).toBe(true);
    expect(log.lines).toHaveLength(1);
  });

  it('logs a teardown failure and still ends the body properly', async () => {
    const target = new FakeTarget();
    const failure = new Error('teardown broke');
    async function* lifecycle() {
      yield items('a');
      throw failure;
    }
    const { pump: p, log } = pump(target);
    await p.open(lifecycle());
    await p.run();
    expect(target.ended).toBe(true);
    expect(target.destroyed).toBe(false);
    // One line: the message names the stream's route, the error rides along.
    expect(log.lines).toEqual([
      { level: 'error', message: 'error tearing down stream for GET /s', error: failure },
    ]);
  });

  it('warns once about a lifecycle generator that yields twice, and closes it', async () => {
    const target = new FakeTarget();
    let closed = false;
    async function* lifecycle() {
      try {
        yield items('a');
        yield items('b');
        yield items('c');
      } finally {
        closed = true;
      }
    }
    const { pump: p, log } = pump(target);
    await p.open(lifecycle());
    await p.run();
    expect(target.text).toBe('a\n');
    expect(closed).toBe(true);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({
      level: 'warn',
      message: expect.stringContaining('yielded more than once'),
    });
  });

  it('on disconnect while the source waits: tears down at once, never writes again', async () => {
    const target = new FakeTarget();
    const never = deferred<string>();
    let innerClosed = false;
    let torn = false;
    async function* lifecycle() {
      try {
        yield (async function* () {
          try {
            yield 'a';
            yield await never.promise;
          } finally {
            innerClosed = true;
          }
        })();
      } finally {
        torn = true;
      }
    }
    const { pump: p, log } = pump(target);
    await p.open(lifecycle());
    const running = p.run();
    await tick();
    target.disconnect();
    await running;
    expect(torn).toBe(true);
    // The inner generator is mid-step: its return() is queued behind that step.
    expect(innerClosed).toBe(false);
    never.resolve('late');
    await tick();
    expect(innerClosed).toBe(true);
    expect(target.text).toBe('a\n');
    expect(log.lines).toEqual([]);
  });

  it('on disconnect during a drain wait: closes the iterator and stops pulling', async () => {
    const target = new FakeTarget(1);
    let pulls = 0;
    let closed = false;
    async function* source() {
      try {
        for (;;) {
          pulls++;
          yield 'x';
        }
      } finally {
        closed = true;
      }
    }
    const { pump: p } = pump(target);
    await p.open(source());
    const running = p.run();
    await tick();
    expect(pulls).toBe(1); // the first write filled the buffer: no second pull without drain
    target.disconnect();
    await running;
    expect(closed).toBe(true);
    expect(pulls).toBe(1);
  });

  it('awaits drain whenever a write returns false, and resumes in order', async () => {
    const target = new FakeTarget(3); // two 2-byte items fill it
    let pulls = 0;
    async function* source() {
      for (let i = 0; i < 6; i++) {
        pulls++;
        yield i;
      }
    }
    const { pump: p } = pump(target);
    await p.open(source());
    const running = p.run();
    await tick();
    expect(pulls).toBe(2);
    target.flush();
    await tick();
    expect(pulls).toBe(4);
    target.flush();
    await tick();
    target.flush();
    await running;
    expect(target.text).toBe('0\n1\n2\n3\n4\n5\n');
  });

  it('stop() ends an open stream properly and runs teardown', async () => {
    const target = new FakeTarget();
    let torn = false;
    async function* lifecycle() {
      yield (async function* () {
        yield 'a';
        await new Promise(() => undefined); // waits forever
      })();
      torn = true;
    }
    const { pump: p } = pump(target);
    await p.open(lifecycle());
    void p.run();
    await tick();
    await p.stop();
    expect(torn).toBe(true);
    expect(target.ended).toBe(true);
    expect(target.destroyed).toBe(false);
    expect(target.text).toBe('a\n');
  });

  it('stop() during open lets the stream start, then ends it', async () => {
    const target = new FakeTarget();
    const gate = deferred();
    async function* source() {
      await gate.promise;
      yield 'first';
      yield 'second';
    }
    const { pump: p } = pump(target);
    const opening = p.open(source());
    await p.stop();
    gate.resolve();
    expect(await opening).toBe(true);
    await p.run();
    expect(target.text).toBe('first\n');
    expect(target.ended).toBe(true);
  });

  it('when the client leaves during setup: done at once, open resolves false once setup ends, its finally runs', async () => {
    const target = new FakeTarget();
    const gate = deferred();
    let torn = false;
    async function* lifecycle() {
      try {
        await gate.promise;
        yield items('a');
      } finally {
        torn = true;
      }
    }
    const { pump: p } = pump(target);
    const opening = p.open(lifecycle());
    await tick();
    target.disconnect();
    await p.done; // does not wait for the setup in flight
    expect(torn).toBe(false);
    gate.resolve();
    expect(await opening).toBe(false);
    await tick();
    expect(torn).toBe(true);
    expect(target.chunks).toEqual([]);
  });

  it('stop() while the source waits ends at once; the step in flight is left behind', async () => {
    const target = new FakeTarget();
    const gate = deferred<string>();
    async function* source() {
      yield 'a';
      yield await gate.promise;
    }
    const { pump: p } = pump(target);
    await p.open(source());
    void p.run();
    await tick();
    await p.stop();
    expect(target.ended).toBe(true);
    gate.resolve('late');
    await tick();
    expect(target.text).toBe('a\n');
  });
});
