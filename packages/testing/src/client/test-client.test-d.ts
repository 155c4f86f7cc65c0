import { describe, expectTypeOf, it } from 'vitest';
import { BaseApp, BaseFactory } from '@api/core';
import { FactoryHarness } from '../harness/factory-harness';
import type { StreamSession } from './stream-session';
import { TestClient } from './test-client';
import type { TestResponse } from './test-response';

class App extends BaseApp {
  protected override async wire(): Promise<void> {}
}

describe('TestClient types', () => {
  it('types the jar from the option', async () => {
    expectTypeOf(new TestClient(new App(), { cookieJar: true }).cookieJar).toEqualTypeOf<
      Map<string, string>
    >();
    expectTypeOf(new TestClient(new App(), { cookieJar: false }).cookieJar).toEqualTypeOf<undefined>();
    expectTypeOf(new TestClient(new App()).cookieJar).toEqualTypeOf<Map<string, string> | undefined>();
    expectTypeOf(await TestClient.start(new App())).toEqualTypeOf<TestClient<false>>();
    expectTypeOf(await TestClient.start(new App(), { cookieJar: true })).toEqualTypeOf<TestClient<true>>();
    const anyClient: TestClient = new TestClient(new App(), { cookieJar: true });
    void anyClient;
  });

  it('refuses body options on get, head, options, delete and their stream forms', () => {
    const c = new TestClient(new App());
    // @ts-expect-error no body on GET
    void c.get('/x', { json: {} });
    // @ts-expect-error no body on HEAD
    void c.head('/x', { content: 'x' });
    // @ts-expect-error no body on OPTIONS
    void c.options('/x', { data: {} });
    // @ts-expect-error no body on DELETE
    void c.delete('/x', { files: {} });
    // @ts-expect-error no body on a streamed GET
    void c.streamGet('/x', { json: 1 });
    expectTypeOf(
      c.post('/x', {
        json: { a: 1 },
        params: { n: 1, on: true, tags: ['a'] },
        headers: [['a', 'b']],
        cookies: { s: '1' },
      }),
    ).toEqualTypeOf<Promise<TestResponse>>();
    expectTypeOf(c.request('DELETE', '/x', { json: 1 })).toEqualTypeOf<Promise<TestResponse>>();
    expectTypeOf(c.streamPost('/x', { content: new Uint8Array() })).toEqualTypeOf<Promise<StreamSession>>();
  });

  it('rejects ill-typed options', () => {
    const c = new TestClient(new App());
    // @ts-expect-error params values are scalars or lists of scalars
    void c.get('/x', { params: { a: { nested: 1 } } });
    // @ts-expect-error content is a string or bytes
    void c.post('/x', { content: 1 });
    // @ts-expect-error a file needs a filename
    void c.post('/x', { files: { f: { content: 'x' } } });
  });

  it('types json<T>() as an assertion defaulting to unknown', async () => {
    const res = await new TestClient(new App()).get('/x');
    expectTypeOf(res.json()).toEqualTypeOf<unknown>();
    expectTypeOf(res.json<{ id: string }>()).toEqualTypeOf<{ id: string }>();
    expectTypeOf(res.headers.get('x')).toEqualTypeOf<string | undefined>();
    expectTypeOf(res.multiHeaders).toEqualTypeOf<ReadonlyArray<readonly [string, string]>>();
  });
});

describe('FactoryHarness types', () => {
  class Factory extends BaseFactory {
    async createThing(): Promise<{ id: number }> {
      return { id: 1 };
    }
  }
  it('keeps the factory type and the run result type', async () => {
    const harness = await FactoryHarness.open(Factory);
    expectTypeOf(harness.factory).toEqualTypeOf<Factory>();
    expectTypeOf(await harness.run(harness.factory.createThing())).toEqualTypeOf<{ id: number }>();
    expectTypeOf(await harness.run((f) => f.createThing())).toEqualTypeOf<{ id: number }>();
  });
});
