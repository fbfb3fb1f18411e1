import { useMemo } from 'react';
import { api } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { segmentFields, type SegmentField } from './segment-fields';

/** A realm's builder fields in the console's language: its custom fields (with their options) and its event types' titles. */
export function useSegmentFields(realmUid: string): SegmentField[] {
  const { t, locale } = useI18n();
  const customFields = api.useQuery('get', '/customers/{realm_uid}/custom_fields', { params: { path: { realm_uid: realmUid }, query: { per_page: '100' } } });
  const eventTypes = api.useQuery('get', '/customers/{realm_uid}/event_types', { params: { path: { realm_uid: realmUid }, query: { locale } } });
  return useMemo(() => segmentFields(t, customFields.data?.custom_fields ?? [], eventTypes.data?.event_types ?? []), [t, customFields.data, eventTypes.data]);
}
