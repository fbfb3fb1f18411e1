import { useState } from 'react';
import { ActionIcon, Group, Text } from '@mantine/core';
import { ServerSelect, type Option } from '../../components/server-select';
import { useI18n } from '../../i18n/i18n';

type UseOptions = (search: string) => { options: Option[]; loading: boolean };

/** The labels of the values picked in this editor (a uuid alone says little); a value picked earlier shows its uuid. */
export function usePickLabels() {
  const [labels, setLabels] = useState<Record<string, string>>({});
  const remember = (value: string | null, options: Option[]) => {
    const found = options.find((option) => option.value === value);
    if (value && found) setLabels((known) => ({ ...known, [value]: found.label }));
  };
  return { labels, remember };
}

/** The values picked, each with a button that removes it. */
export function PickedList({ value, labels, onChange }: { value: string[]; labels: Record<string, string>; onChange(next: string[]): void }) {
  const { t } = useI18n();
  return value.map((uuid) => (
    <Group key={uuid} gap="xs" wrap="nowrap">
      <Text size="sm">{labels[uuid] ?? uuid}</Text>
      <ActionIcon variant="default" size="sm" aria-label={t('content.remove', { name: labels[uuid] ?? uuid })}
        onClick={() => onChange(value.filter((other) => other !== uuid))}>×</ActionIcon>
    </Group>
  ));
}

/** A server select that also tells which option was picked, for its label. */
export function PickSelect({ useOptions, onPick, ...props }: { label: string; value: string | null; selectedLabel?: string; error?: string; useOptions: UseOptions; onPick(value: string | null, options: Option[]): void }) {
  const { t } = useI18n();
  let seen: Option[] = [];
  const useSeenOptions = (search: string) => {
    const found = useOptions(search);
    seen = found.options;
    return found;
  };
  return (
    <ServerSelect {...props} clearButtonProps={{ 'aria-label': t('content.clear', { name: props.label }) }} style={{ flex: 1, minWidth: 220 }}
      useOptions={useSeenOptions} onChange={(value) => onPick(value, seen)} />
  );
}
