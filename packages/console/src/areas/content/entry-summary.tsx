import { Badge, Group } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { useI18n } from '../../i18n/i18n';

type Entry = AdminComponents['schemas']['ContentAdminEntry'];

/** Whether a version's locale is live: a published version is; a draft's was published and not taken down since. */
export const isPublished = (meta: Partial<Pick<Entry['meta'], 'published_at' | 'unpublished_at' | 'version_type'>> | undefined) =>
  meta?.version_type === 'published' || (!!meta?.published_at && (!meta.unpublished_at || meta.unpublished_at < meta.published_at));

/** Where an entry stands: published or not, and what its schedule will do. */
export function EntrySummary({ draft }: { draft: Entry }) {
  const { t, formatDate } = useI18n();
  const live = isPublished(draft.meta);
  return (
    <Group gap="xs" role="status">
      <Badge color={live ? 'green.9' : 'gray.7'}>{live ? t('content.publishedAt', { date: formatDate(draft.meta.published_at) }) : t('content.notPublished')}</Badge>
      {draft.publish_at && <Badge color="blue.9">{t('content.scheduledPublish', { date: formatDate(draft.publish_at) })}</Badge>}
      {draft.unpublish_at && <Badge color="blue.9">{t('content.scheduledUnpublish', { date: formatDate(draft.unpublish_at) })}</Badge>}
    </Group>
  );
}
