import { Group, Pagination, Text } from '@mantine/core';
import type { Meta } from '@atrium/client';
import { useI18n } from '../i18n/i18n';

/** The total and the page buttons under a server-paginated list; nothing when the list is empty. */
export function Pager({ meta, onPage }: { meta: Meta | undefined; onPage(page: number): void }) {
  const { t, formatNumber } = useI18n();
  if (!meta || meta.total_pages < 1) return null;
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed">{t('common.totalEntries', { count: formatNumber(meta.total_entries) })}</Text>
      <Pagination
        total={meta.total_pages}
        value={meta.current_page}
        onChange={onPage}
        getControlProps={(control) => ({ 'aria-label': control === 'previous' ? t('common.previous') : control === 'next' ? t('common.next') : control })}
        getItemProps={(page) => ({ 'aria-label': t('common.pageOf', { page, pages: meta.total_pages }) })}
      />
    </Group>
  );
}
