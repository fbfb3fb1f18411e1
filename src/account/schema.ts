import { Type } from '@sinclair/typebox';
import { DateTime, Int32 } from '../http/models.js';

export const AccountModel = Type.Object({
  name: Type.String(),
  upload_max_bytes: Int32({ description: 'Largest accepted upload, in bytes' }),
  allowed_extensions: Type.Array(Type.String(), { description: 'File extensions accepted for uploads' }),
  second_factor_required: Type.Boolean({ description: 'Every team member needs a second factor: one without it can only set one up after signing in' }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'Account' });

export const AccountInput = Type.Partial(Type.Object({
  name: Type.String(),
  upload_max_bytes: Int32({ minimum: 1 }),
  allowed_extensions: Type.Array(Type.String()),
  second_factor_required: Type.Boolean(),
}), { additionalProperties: false });
