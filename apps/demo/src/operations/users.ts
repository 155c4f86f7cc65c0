import * as v from 'valibot';
import { Endpoint, JSONResponse, NoContent, Struct, Tag } from '@api/core';
import { User } from '../models';

const users = new Tag('users', 'Who is calling.');

/** GET /me: the bearer-authenticated caller. */
export class MeEndpoint extends Endpoint('/me', {
  meta: { tags: [users] },
}) {
  get = this.operation(
    { user: User, returns: User, meta: { summary: 'The calling user.' } },
    ({ user }) => user,
  );
}

/** GET /profile: the cookie-session caller. */
export class ProfileEndpoint extends Endpoint('/profile', { meta: { tags: [users] } }) {
  get = this.operation(
    { user: User, returns: User, meta: { summary: 'The session user.' } },
    ({ user }) => user,
  );
}

export const Spotlight = Struct('Spotlight', {
  widgetId: v.string(),
  personalizedFor: v.nullable(v.string()),
});

/** GET /spotlight: anonymous callers get the generic spotlight; some users get none (204). */
export class SpotlightEndpoint extends Endpoint('/spotlight', {
  meta: { tags: [users] },
}) {
  get = this.operation(
    {
      user: v.nullable(User),
      returns: [JSONResponse.of(Spotlight), NoContent.of()],
      meta: { summary: 'The spotlight widget, personalized when signed in.' },
    },
    ({ user }) => {
      if (user && !user.maySeeSpotlight) return new NoContent();
      return new JSONResponse({ json: { widgetId: 'spotlight', personalizedFor: user?.name ?? null } });
    },
  );
}
