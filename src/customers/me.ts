import type { Static } from '@sinclair/typebox';
import type { Context } from '../context.js';
import { readAll } from '../db/parallel.js';
import type { MeModel } from './schema.js';
import { normalizeEmail } from '../admin-auth/team.js';
import { recordEvent } from '../events/events.js';
import { allowEmailChange, requestEmailChange } from '../realms/email-change.js';
import { fieldsOf, keptFieldsOf, type CustomField } from '../realms/custom-fields.js';
import { fieldValueList, type FieldValues } from '../realms/field-values.js';
import { avatarBody, userName, writeRealmUser, type RealmUser, type RealmUserInput } from '../realms/users.js';
import type { Customer } from '../realms/credential.js';
import { delegatedTokenOf, type DelegatedTokenBody } from '../delegation/tokens.js';
import { keptAnswers } from '../http/kept-answers.js';

/** Spec 2.7. */
export type MeBody = Static<typeof MeModel>;

/** What a user may change of their own profile. */
export type MeInput = Pick<RealmUserInput, 'first_name' | 'last_name' | 'second_last_name' | 'username' | 'email' | 'custom_fields' | 'locale'>;

export function meBody(user: RealmUser, fields: CustomField[], delegatedToken: DelegatedTokenBody | null): MeBody {
  return {
    id: user.id,
    external_id: user.externalId,
    name: userName(user),
    first_name: user.firstName,
    last_name: user.lastName,
    second_last_name: user.secondLastName,
    email: user.email,
    username: user.username,
    locale: user.locale,
    avatar: avatarBody(user.avatar ?? null),
    custom_fields: fieldValueList(fields.filter((f) => f.visible), user.customFields as FieldValues),
    delegated_token: delegatedToken,
  };
}

/** The profile of a user the credential cache keeps, with the realm's kept fields: written once while both are kept. */
const keptMe = keptAnswers((user: RealmUser, fields: CustomField[]) => meBody(user, fields, null));

/** The signed-in user's profile: at once when the realm's fields are kept and it shows no delegation information (most calls). */
export function getMe(ctx: Context, customer: Customer): MeBody | Promise<MeBody> {
  const kept = keptFieldsOf(ctx, customer.realm.id);
  if (kept && !customer.realm.showDelegationInformation) return keptMe(customer.user, kept);
  return readAll(ctx.db, [() => fieldsOf(ctx, customer.realm.id), () => delegatedTokenOf(ctx, customer)] as const)
    .then(([fields, delegatedToken]) => meBody(customer.user, fields, delegatedToken));
}

const PROFILE_COLUMNS = ['username', 'firstName', 'lastName', 'secondLastName', 'locale', 'customFields'] as const;

/**
 * Spec 4.3 rule 1: custom fields that are not both visible and editable by users (and unknown keys)
 * are dropped silently and keep their value; everything else is checked like an admin's change, and
 * one 422 names each invalid attribute. A change records `user_updated_log`. A new email address is
 * not written: it waits for the link mailed to it (email-change.ts), so the answer shows the old one.
 */
export async function updateMe(ctx: Context, customer: Customer, input: MeInput): Promise<MeBody> {
  const { realm, user, session } = customer;
  const fields = await fieldsOf(ctx, realm.id);
  const editable = fields.filter((f) => f.visible && f.editable);
  const keys = new Set(editable.map((f) => f.key));
  const email = input.email === undefined ? null : normalizeEmail(input.email);
  const newAddress = email !== null && email !== user.email.toLowerCase();
  if (newAddress) await allowEmailChange(ctx, user);
  const updated = await writeRealmUser(ctx, realm, user, {
    first_name: input.first_name,
    last_name: input.last_name,
    second_last_name: input.second_last_name,
    username: input.username,
    email: input.email,
    locale: input.locale,
    custom_fields: input.custom_fields?.filter((i) => keys.has(i.key)),
  }, { fields: editable, emailPending: true });
  if (newAddress) await requestEmailChange(ctx, realm, updated, email);
  if (PROFILE_COLUMNS.some((c) => JSON.stringify(updated[c]) !== JSON.stringify(user[c]))) {
    await recordEvent(ctx, { realmId: realm.id, userId: user.id, type: 'user_updated_log', impersonatorId: session.impersonatorId });
  }
  return meBody(updated, fields, await delegatedTokenOf(ctx, customer));
}
