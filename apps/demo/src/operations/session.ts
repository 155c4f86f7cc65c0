import { Endpoint, NoContent, SetCookie, Tag } from '@api/core';
import { InvalidTokenError } from '../errors';
import { SessionIn, type User } from '../models';

const session = new Tag('session', 'Cookie sessions for browsers.');

/** The cookie that carries a browser session. */
export const SESSION_COOKIE = 'session_id';

/** POST /session sets the session cookie for a known token; DELETE /session expires it. */
export class SessionEndpoint extends Endpoint('/session', {
  meta: { tags: [session] },
}) {
  constructor(private readonly users: ReadonlyMap<string, User>) {
    super();
  }

  post = this.operation(
    {
      json: SessionIn,
      returns: NoContent.of(),
      meta: { summary: 'Start a cookie session.', exceptions: [InvalidTokenError] },
    },
    ({ json }) => {
      if (!this.users.has(json.token)) throw new InvalidTokenError();
      return new NoContent({ cookies: [new SetCookie(SESSION_COOKIE, json.token)] });
    },
  );

  delete = this.operation(
    { returns: NoContent.of(), meta: { summary: 'End the cookie session.' } },
    () => new NoContent({ cookies: [SetCookie.expire(SESSION_COOKIE)] }),
  );
}
