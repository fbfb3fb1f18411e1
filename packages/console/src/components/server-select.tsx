import { useState } from 'react';
import { MultiSelect, Select, type MultiSelectProps, type OptionsFilter, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useI18n } from '../i18n/i18n';

export interface Option { value: string; label: string }
/** The options matching what was typed (debounced 300 ms), fetched from the server: one page, never the whole list. */
export type UseOptions = (search: string) => { options: Option[]; loading: boolean };

/** The server already searched: every option it answered is shown. */
const keepAll: OptionsFilter = ({ options }) => options;

/** What the member types, and the server's options for it. */
function useServerSearch(useOptions: UseOptions) {
  const { t } = useI18n();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const { options, loading } = useOptions(debounced);
  const props = {
    searchable: true, filter: keepAll,
    nothingFoundMessage: loading ? t('common.loading') : t('common.noResults'), searchValue: search, onSearchChange: setSearch,
  };
  return { options, props };
}

export interface ServerSelectProps extends Omit<SelectProps, 'data' | 'searchValue' | 'onSearchChange' | 'onChange' | 'value'> {
  value?: string | null;
  onChange(value: string | null): void;
  useOptions: UseOptions;
  /** The label of the current value when it is not among the options found (a saved choice, a value in the URL). */
  selectedLabel?: string;
}

/** A searchable select whose options come from the server as the member types (realm, space, user, entry pickers). */
export function ServerSelect({ value = null, onChange, useOptions, selectedLabel, ...props }: ServerSelectProps) {
  const { options, props: searchProps } = useServerSearch(useOptions);
  // The option picked keeps its label once the search (now its label) finds other options, or none.
  const [picked, setPicked] = useState<Option | null>(null);
  const data = value && !options.some((option) => option.value === value)
    ? [{ value, label: picked?.value === value ? picked.label : selectedLabel ?? value }, ...options] : options;
  return (
    <Select clearable {...searchProps} {...props} data={data} value={value} onChange={(next) => {
      setPicked(options.find((option) => option.value === next) ?? null);
      onChange(next);
    }} />
  );
}

export interface ServerMultiSelectProps extends Omit<MultiSelectProps, 'data' | 'searchValue' | 'onSearchChange' | 'onChange' | 'value'> {
  value?: string[];
  onChange(value: string[]): void;
  useOptions: UseOptions;
  /** The labels of values saved before (those the server's page may not hold). */
  known: Option[];
}

/** The many-values ServerSelect: a chosen value keeps its label when the options found change. */
export function ServerMultiSelect({ value = [], onChange, useOptions, known, ...props }: ServerMultiSelectProps) {
  const { options, props: searchProps } = useServerSearch(useOptions);
  const [labels, setLabels] = useState(() => new Map(known.map((option) => [option.value, option.label])));
  const data = [...options, ...value.filter((v) => !options.some((option) => option.value === v)).map((v) => ({ value: v, label: labels.get(v) ?? v }))];
  return (
    <MultiSelect {...searchProps} {...props} data={data} value={value} onChange={(next) => {
      setLabels((current) => new Map([...current, ...options.filter((option) => next.includes(option.value)).map((option) => [option.value, option.label] as const)]));
      onChange(next);
    }} />
  );
}
