import { useState } from 'react';
import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useI18n } from '../i18n/i18n';

export interface Option { value: string; label: string }

interface ServerSelectProps extends Omit<SelectProps, 'data' | 'searchValue' | 'onSearchChange' | 'onChange' | 'value'> {
  value: string | null;
  onChange(value: string | null): void;
  /** The options matching what was typed (debounced 300 ms), fetched from the server: one page, never the whole list. */
  useOptions(search: string): { options: Option[]; loading: boolean };
  /** The label of the current value when it is not among the options found (a saved choice, a value in the URL). */
  selectedLabel?: string;
}

/** A searchable select whose options come from the server as the member types (realm, space, user, entry pickers). */
export function ServerSelect({ value, onChange, useOptions, selectedLabel, ...props }: ServerSelectProps) {
  const { t } = useI18n();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const { options, loading } = useOptions(debounced);
  const data = value && !options.some((option) => option.value === value)
    ? [{ value, label: selectedLabel ?? value }, ...options] : options;
  return (
    <Select
      searchable
      clearable
      filter={({ options: all }) => all}
      nothingFoundMessage={loading ? t('common.loading') : t('common.noResults')}
      {...props}
      data={data}
      value={value}
      onChange={(next) => onChange(next)}
      searchValue={search}
      onSearchChange={setSearch}
    />
  );
}
