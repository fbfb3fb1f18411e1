import { Type } from '@sinclair/typebox';
import { ErrorBody } from '../http/errors.js';
import { DateTime, Id, ref } from '../http/models.js';
import { Meta, PageQuery } from '../http/pagination.js';
import { RealmNotFound } from '../customers/schema.js';

/** Every profile operation may name the realm of the session cookie it is signed in with. */
export const RealmQuery = {
  realm_uid: Type.Optional(Type.String({ description: 'The realm, when signing in with its session cookie' })),
};

export const SessionsQuery = Type.Object({ ...RealmQuery, ...PageQuery });

export const SessionParams = Type.Object({
  // Any positive integer: one that names no live session of the user, past 2^31 too, answers 404 like any unknown id.
  id: Type.Integer({ minimum: 1, finite: true, description: 'The session\'s id, from GET /sessions' }),
});

export const SessionModel = Type.Object({
  id: Id(),
  created_at: DateTime,
  last_used_at: DateTime,
  user_agent: Type.Union([Type.String(), Type.Null()], { description: 'The browser that signed in (its User-Agent, at most 500 characters); null when it sent none' }),
  current: Type.Boolean({ description: 'Whether this is the session making the request (only with the session cookie as credential; always false in the admin API)' }),
}, {
  $id: 'ProfileSession',
  description: 'One of a realm user\'s active sessions (a browser sign-in). `last_used_at` is kept to the minute; '
    + 'a use of an OAuth access token counts as a use of the session it came from.',
});

export const SessionListModel = Type.Object({
  sessions: Type.Array(ref(SessionModel), { description: 'Most recently used first' }),
  meta: ref(Meta),
}, { $id: 'ProfileSessions', description: 'A page of a realm user\'s active sessions' });

/** 404 of a session operation: the customers API's `{}` for the realm, the shared error shape for the session. */
export const SessionNotFound = {
  404: Type.Union([ref(RealmNotFound), ref(ErrorBody)], {
    description: 'Unknown or inactive realm (`{}`), or no active session of the signed-in user has this id',
  }),
};
