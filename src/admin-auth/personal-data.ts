import { forbidden } from '../errors/index.js';
import type { Permission } from './permissions.js';
import type { AdminPrincipal } from './principal.js';

/**
 * DESIGN.md "Personal data", the one rule: an operation that shows a realm user's data (a message
 * rendered for them, matching users, a list naming them by email) or counts over personal attributes
 * (a filter on an email, a username, a name or a free-text field) needs this permission on that realm,
 * whatever else it needs, and answers 403 without it. A route whose realm is in its path states it with
 * `personal: true` (the guard applies it); an operation that learns the realm later calls the functions
 * below.
 */
export const PERSONAL_DATA: Permission = 'realm.users.read';

/** What the reference says of a route flagged `personal`. */
export const PERSONAL_ROUTE_NOTE = ` Needs \`${PERSONAL_DATA}\` on the realm too (403 without): the answer shows the user's data.`;

const refusal = () => forbidden(`This shows or counts the personal data of a realm's users: it needs ${PERSONAL_DATA} on the realm`);

/** The actor may see the data of the users of this realm (of every realm when `realmUid` is null). */
export function assertMaySeePersonalData(actor: AdminPrincipal, realmUid: string | null): void {
  if (!(realmUid === null ? actor.holdsEverywhere(PERSONAL_DATA) : actor.holdsOn(PERSONAL_DATA, realmUid))) throw refusal();
}

/**
 * Where a list across realms that names users may reach: the realms where the actor holds both
 * `permission` and the personal-data permission (null: every realm). 403 when that is no realm at all.
 */
export function personalDataReach(actor: AdminPrincipal, permission: Permission): string[] | null {
  const listed = actor.targetsOf(permission);
  const personal = actor.targetsOf(PERSONAL_DATA);
  const reach = listed === null ? personal : personal === null ? listed : listed.filter((uid) => personal.includes(uid));
  if (reach !== null && !reach.length) throw refusal();
  return reach;
}
