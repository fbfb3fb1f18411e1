import { Type } from '@sinclair/typebox';
import { ErrorBody } from '../http/errors.js';
import { ref } from '../http/models.js';
import { PageQuery } from '../http/pagination.js';
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

/** 404 of a session operation: the customers API's `{}` for the realm, the shared error shape for the session. */
export const SessionNotFound = {
  404: Type.Union([ref(RealmNotFound), ref(ErrorBody)], {
    description: 'Unknown or inactive realm (`{}`), or no active session of the signed-in user has this id',
  }),
};
