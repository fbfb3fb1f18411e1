import { validateListSearch, type ListSearch } from '../../components/list-search';

/** The audit log's state in its URL: the page and its filters (member, realm, resource type and id, period). */
export interface AuditSearch extends ListSearch {
  member_id?: number;
  realm_uid?: string;
  resource_type?: string;
  resource_id?: string;
  from?: string;
  to?: string;
}

// The router reads `?resource_id=12` as the number 12: a number is kept as its text.
const text = (value: unknown) => {
  const string = typeof value === 'number' ? String(value) : value;
  return typeof string === 'string' && string !== '' ? string.slice(0, 200) : undefined;
};

export function validateAuditSearch(raw: Record<string, unknown>): AuditSearch {
  const member = Number(raw.member_id);
  return {
    page: validateListSearch(raw).page,
    member_id: Number.isSafeInteger(member) && member > 0 ? member : undefined,
    realm_uid: text(raw.realm_uid),
    resource_type: text(raw.resource_type),
    resource_id: text(raw.resource_id),
    from: text(raw.from),
    to: text(raw.to),
  };
}
