import { ActionIcon, Group } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useI18n } from '../../i18n/i18n';
import type { OriginationValues } from './origination-values';

/** Moves the item `index` of a list of the form up or down. */
export function MoveButtons({ form, list, index, count }: { form: UseFormReturnType<OriginationValues>; list: string; index: number; count: number }) {
  const { t } = useI18n();
  if (count < 2) return null;
  return (
    <Group gap={2}>
      <ActionIcon variant="default" aria-label={t('originations.moveUp')} disabled={index === 0}
        onClick={() => form.reorderListItem(list, { from: index, to: index - 1 })}>↑</ActionIcon>
      <ActionIcon variant="default" aria-label={t('originations.moveDown')} disabled={index === count - 1}
        onClick={() => form.reorderListItem(list, { from: index, to: index + 1 })}>↓</ActionIcon>
    </Group>
  );
}
