import { useState } from 'react';
import { Fieldset, Group, Select, Stack, Text } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import type { Option } from '../../components/server-select';
import { useI18n } from '../../i18n/i18n';
import { PickedList, PickSelect, usePickLabels } from './pick';

type Version = AdminComponents['schemas']['ContentAdminEntryListItem'];

/** One option per entry (the list has one item per locale): named in the locale edited when it has it. */
function entryOptions(versions: Version[], locale: string): Option[] {
  const byUuid = new Map<string, string>();
  for (const { meta } of versions) if (meta?.uuid && (!byUuid.has(meta.uuid) || meta.locale === locale)) byUuid.set(meta.uuid, meta.name ?? '');
  return [...byUuid].map(([value, label]) => ({ value, label }));
}

interface EntryRefProps { spaceUid: string; typeUid: string; locale: string; label: string; value: string[]; onChange(uuids: string[]): void; many: boolean; withAsterisk?: boolean; error?: string }

/** Entry and entries fields: entries of the space, of the content type chosen, searched on the server by name or slug (in any locale). */
export function EntryRefInput({ spaceUid, typeUid, locale, label, value, onChange, many, withAsterisk, error }: EntryRefProps) {
  const { t } = useI18n();
  const [typeOf, setTypeOf] = useState(typeUid);
  const { labels, remember } = usePickLabels();
  const types = api.useQuery('get', '/content/spaces/{space_uid}/types', { params: { path: { space_uid: spaceUid }, query: { per_page: '100', sort_by: 'name', order: 'asc' } } });
  const useOptions = (search: string): { options: Option[]; loading: boolean } => {
    const list = api.useQuery('get', '/content/spaces/{space_uid}/types/{type_uid}/entries', {
      params: { path: { space_uid: spaceUid, type_uid: typeOf }, query: { per_page: '20', only: ['meta'], ...(search ? { query: search } : {}) } },
    });
    return { options: entryOptions(list.data?.entries ?? [], locale), loading: list.isLoading };
  };
  // The names of the entries already referred to: the first page of the chosen type's (most references stay within a type).
  const known = api.useQuery('get', '/content/spaces/{space_uid}/types/{type_uid}/entries', {
    params: { path: { space_uid: spaceUid, type_uid: typeOf }, query: { per_page: '100', only: ['meta'] } },
  }, { enabled: value.length > 0 });
  const names = { ...Object.fromEntries(entryOptions(known.data?.entries ?? [], locale).map((option) => [option.value, option.label])), ...labels };
  const pick = (uuid: string | null, options: Option[]) => {
    remember(uuid, options);
    if (!many) onChange(uuid ? [uuid] : []);
    else if (uuid && !value.includes(uuid)) onChange([...value, uuid]);
  };
  return (
    <Fieldset legend={<Text span fw={500}>{label}{withAsterisk ? ' *' : ''}</Text>} variant="unstyled">
      <Stack gap="xs">
        {many && <PickedList value={value} labels={names} onChange={onChange} />}
        <Group align="flex-end" wrap="wrap">
          <Select label={t('content.entryType', { name: label })} allowDeselect={false} value={typeOf} onChange={(next) => setTypeOf(next ?? typeUid)} w={200}
            data={(types.data?.types ?? []).map((type) => ({ value: type.uid ?? '', label: type.name ?? '' }))} />
          <PickSelect label={many ? t('content.addEntry', { name: label }) : label} value={many ? null : value[0] ?? null}
            selectedLabel={value[0] ? names[value[0]] : undefined} useOptions={useOptions} onPick={pick} error={error} />
        </Group>
      </Stack>
    </Fieldset>
  );
}
