// The README's example, kept compiling and passing.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BaseApp, Endpoint, NoContent, SetCookie, Struct } from '@api/core';
import { TestClient } from '@api/testing';
import { quietLogger } from './apps';

const Health = Struct('Health', { status: v.string() });
class HealthEndpoint extends Endpoint('/healthz') {
  get = this.operation({ returns: Health }, () => ({ status: 'ok' }));
}
class Login extends Endpoint('/login') {
  post = this.operation(
    { json: Struct('LoginIn', { name: v.string() }), returns: NoContent.of() },
    ({ json }) => new NoContent({ cookies: [new SetCookie('session_id', json.name)] }),
  );
}
class App extends BaseApp {
  protected override async wire() {
    this.includeEndpoint(new HealthEndpoint());
    this.includeEndpoint(new Login());
  }
}

describe('README example', () => {
  it('answers the health check', async () => {
    await using client = await TestClient.start(new App({ logger: quietLogger() }));
    const res = await client.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('keeps the session cookie', async () => {
    await using client = await TestClient.start(new App({ logger: quietLogger() }), { cookieJar: true });
    const res = await client.post('/login', { json: { name: 'ada' } });
    expect(res.cookies.session_id?.attributes.httponly).toBe(true);
    expect(client.cookieJar.get('session_id')).toBe('ada');
  });
});
