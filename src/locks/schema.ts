import { Type } from '@sinclair/typebox';
import { DateTime, Id } from '../http/models.js';
import { PageQuery } from '../http/pagination.js';
import { LEASE_MINUTES } from './locks.js';

export const LockModel = Type.Object({
  id: Id(),
  resource_type: Type.String({ description: 'The kind of item locked', examples: ['content_entry'] }),
  resource_id: Type.String({ description: 'The item\'s id (a content entry\'s uuid, a page\'s id)' }),
  scope: Type.String({ description: 'The uid of the site or space the item belongs to' }),
  holder: Type.Object({ id: Id(), name: Type.String() }, { description: 'The team member editing the item' }),
  acquired_at: DateTime,
  expires_at: Type.String({ format: 'date-time', description: `When the lock ends without a heartbeat or a save (${LEASE_MINUTES} minutes after the last)` }),
}, { $id: 'EditLock', description: 'An edit lock: the team member editing an item, until it expires' });

/** The lockable kinds are the modules'; the schema names them so that an unknown one is refused with 422. */
export const LockInput = (kinds: string[]) => Type.Object({
  resource_type: Type.Unsafe<string>({ type: 'string', ...(kinds.length ? { enum: kinds } : {}), description: 'The kind of item' }),
  resource_id: Type.String({ minLength: 1, maxLength: 200, description: 'The item\'s id' }),
  take_over: Type.Optional(Type.Boolean({ description: 'Take the lock over from whoever holds it (needs the permission to publish the item)' })),
}, { additionalProperties: false });

export const LockIdParam = Type.Object({ id: Id({ description: 'The lock\'s id' }) });

export const LockListQuery = Type.Object({
  ...PageQuery,
  resource_type: Type.Optional(Type.String({ description: 'Only locks on this kind of item' })),
  resource_id: Type.Optional(Type.String({ description: 'Only the lock on this item (with `resource_type`): who holds it and since when, for an editor\'s banner' })),
  scope: Type.Optional(Type.String({ description: 'Only locks of this site or space' })),
});
