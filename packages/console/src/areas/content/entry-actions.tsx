import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import type { AdminComponents } from '@atrium/client';
import { admin } from '../../api/client';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { useCalendarProps } from './calendar-labels';
import { isPublished } from './entry-summary';
import { notify } from '../../components/notify';

type Entry = AdminComponents['schemas']['ContentAdminEntry'];
interface EntryActionsProps {
  path: { space_uid: string; type_uid: string; uuid: string };
  draft: Entry;
  /** Saves what is not saved yet; false when that failed (the editor shows why). */
  saveFirst(): Promise<boolean>;
  onDone(): Promise<unknown>;
}

const toIso = (value: string | null) => (value ? dayjs(value).toISOString() : null);
const toLocal = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : null);

/** Publish, unpublish and schedule an entry, every locale at once (shown to members who may publish). */
export function EntryActions({ path, draft, saveFirst, onDone }: EntryActionsProps) {
  const { t } = useI18n();
  const calendar = { ...useCalendarProps(), submitButtonProps: { 'aria-label': t('content.confirmDate') } };
  const [error, setError] = useState<unknown>(null);
  const [scheduling, setScheduling] = useState(false);
  const [times, setTimes] = useState({ publish: toLocal(draft.publish_at), unpublish: toLocal(draft.unpublish_at) });
  const run = async (action: () => Promise<unknown>, message: string) => {
    setError(null);
    try {
      await action();
      notify(message);
      await onDone();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    }
  };
  const ENTRY = '/content/spaces/{space_uid}/types/{type_uid}/entries/{uuid}' as const;
  return (
    <Stack gap="xs">
      <Group>
        <Button onClick={async () => {
          if (await saveFirst()) await run(() => admin.POST(`${ENTRY}/publish`, { params: { path }, body: {} }), t('content.publishedDone'));
        }}>{t('content.publish')}</Button>
        {isPublished(draft.meta) && (
          <Button variant="default" onClick={() => run(() => admin.POST(`${ENTRY}/unpublish`, { params: { path }, body: {} }), t('content.unpublishedDone'))}>
            {t('content.unpublish')}
          </Button>
        )}
        <Button variant="default" onClick={() => setScheduling(true)}>{t('content.schedule')}</Button>
      </Group>
      {!scheduling && <FormError error={error} />}
      <Modal opened={scheduling} onClose={() => setScheduling(false)} title={t('content.schedule')}>
        <Stack>
          <FormError error={error} />
          <DateTimePicker {...calendar} label={t('content.publishAt')} clearable clearButtonProps={{ 'aria-label': t('content.clear', { name: t('content.publishAt') }) }} value={times.publish} onChange={(publish) => setTimes({ ...times, publish })} />
          <DateTimePicker {...calendar} label={t('content.unpublishAt')} clearable clearButtonProps={{ 'aria-label': t('content.clear', { name: t('content.unpublishAt') }) }} value={times.unpublish} onChange={(unpublish) => setTimes({ ...times, unpublish })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setScheduling(false)}>{t('common.cancel')}</Button>
            <Button onClick={async () => {
              const body = { publish_at: toIso(times.publish), unpublish_at: toIso(times.unpublish) };
              if (await run(() => admin.PUT(`${ENTRY}/schedule`, { params: { path }, body }), t('content.scheduledDone'))) setScheduling(false);
            }}>{t('common.save')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
