/** What a campaign's templates know of a recipient. */
export interface Recipient {
  id: number;
  uuid: string;
  email: string;
  username: string | null;
  firstName: string;
  lastName: string;
  secondLastName: string;
  externalId: string | null;
  customFields: Record<string, unknown>;
  /** The language of the user's mails: theirs, else the realm's default. */
  locale: string | null;
}

export const fullNameOf = (r: Pick<Recipient, 'firstName' | 'lastName' | 'secondLastName'>) =>
  [r.firstName, r.lastName, r.secondLastName].filter(Boolean).join(' ');

/**
 * The variables of a template: `user.first_name`, `user.last_name`, `user.second_last_name`, `user.name`,
 * `user.email`, `user.username`, `user.external_id`, `user.uuid`, `user.custom_fields.<key>`, and
 * `unsubscribe_url` in a mailing.
 */
export function templateScope(recipient: Recipient, unsubscribeUrl = '') {
  return {
    user: {
      uuid: recipient.uuid,
      email: recipient.email,
      username: recipient.username ?? '',
      first_name: recipient.firstName,
      last_name: recipient.lastName,
      second_last_name: recipient.secondLastName,
      name: fullNameOf(recipient),
      external_id: recipient.externalId ?? '',
      custom_fields: { ...recipient.customFields },
    },
    unsubscribe_url: unsubscribeUrl,
  };
}

/** A made-up recipient, for the trial rendering of a template when it is saved. */
export function sampleScope() {
  return templateScope({
    id: 0, uuid: '00000000-0000-4000-8000-000000000000', email: 'ada@example.com', username: 'ada', firstName: 'Ada',
    lastName: 'Lovelace', secondLastName: '', externalId: null, customFields: {}, locale: null,
  }, 'https://example.com/unsubscribe');
}

/** The columns of realm_users a recipient is read from, for raw SQL over the alias `u`. */
export const RECIPIENT_COLUMNS = `u.id, u.uuid, u.email, u.username, u.first_name, u.last_name, u.second_last_name, u.external_id, u.custom_fields,
  coalesce(u.locale, (select r.default_language from realms r where r.id = u.realm_id)) as locale`;

export interface RecipientRow {
  id: number;
  uuid: string;
  email: string;
  username: string | null;
  first_name: string;
  last_name: string;
  second_last_name: string;
  external_id: string | null;
  custom_fields: Record<string, unknown> | string;
  locale: string | null;
}

export function recipientOf(row: RecipientRow): Recipient {
  return {
    id: row.id, uuid: row.uuid, email: row.email, username: row.username, firstName: row.first_name, lastName: row.last_name,
    secondLastName: row.second_last_name, externalId: row.external_id,
    customFields: typeof row.custom_fields === 'string' ? JSON.parse(row.custom_fields) : row.custom_fields ?? {},
    locale: row.locale,
  };
}
