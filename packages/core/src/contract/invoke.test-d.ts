import { describe, expectTypeOf, it } from 'vitest';
import type { InvokeAnswer, InvokeRequest, Wiring } from '../extension';

declare const wiring: Wiring;

describe('wiring.invoke', () => {
  it('takes a plain description and resolves a plain answer', () => {
    expectTypeOf(wiring.invoke).parameter(0).toEqualTypeOf<InvokeRequest>();
    expectTypeOf(wiring.invoke({ method: 'GET', path: '/x' })).resolves.toEqualTypeOf<InvokeAnswer>();
    expectTypeOf<InvokeAnswer['body']>().toEqualTypeOf<Uint8Array>();
    expectTypeOf<InvokeAnswer['status']>().toEqualTypeOf<number>();
  });

  it('refuses a description without method or path, or with a body that is no string or bytes', () => {
    // @ts-expect-error: path is required
    void wiring.invoke({ method: 'GET' });
    // @ts-expect-error: method is required
    void wiring.invoke({ path: '/x' });
    // @ts-expect-error: an object body is JSON.stringify'd by the caller, not here
    void wiring.invoke({ method: 'POST', path: '/x', body: { a: 1 } });
    // @ts-expect-error: a header value is a string or a list of strings
    void wiring.invoke({ method: 'GET', path: '/x', headers: { 'x-n': 1 } });
    // @ts-expect-error: a WHATWG Request goes to wiring.dispatch
    void wiring.invoke(new Request('http://x/'));
  });
});
