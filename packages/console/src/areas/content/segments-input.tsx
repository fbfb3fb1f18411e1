import { currentNaming } from '@atrium/client';
import { Stack } from '@mantine/core';
import { api } from '../../api/client';
import type { Option } from '../../components/server-select';
import { useI18n } from '../../i18n/i18n';
import { PickedList, PickSelect, usePickLabels } from './pick';

function useSegmentOptions(search: string): { options: Option[]; loading: boolean } {
  const list = api.useQuery('get', '/segments', { params: { query: { per_page: '20', sort_by: 'name', order: 'asc', ...(search ? { query: search } : {}) } } });
  return { options: (currentNaming(list.data)?.segments ?? []).map((segment) => ({ value: segment.uuid, label: `${segment.name} (${segment.realm_uid})` })), loading: list.isLoading };
}

/** The segments whose users may read a private entry, picked by name (searched on the server). */
export function SegmentsInput({ value, onChange, error }: { value: string[]; onChange(uuids: string[]): void; error?: string }) {
  const { t } = useI18n();
  const { labels, remember } = usePickLabels();
  return (
    <Stack gap="xs">
      <PickedList value={value} labels={labels} onChange={onChange} />
      <PickSelect label={t('content.addSegment')} value={null} useOptions={useSegmentOptions} error={error} onPick={(uuid, options) => {
        remember(uuid, options);
        if (uuid && !value.includes(uuid)) onChange([...value, uuid]);
      }} />
    </Stack>
  );
}
