import { useState } from 'react';
import { Alert, Button, Code, Group, Paper, Stack, Text } from '@mantine/core';
import { admin } from '../../api/client';
import { messageOf } from '../../api/errors';
import { UserSelect } from '../../components/user-select';
import { useI18n } from '../../i18n/i18n';
import type { CampaignValues } from './campaign-form';

/** The draft rendered by the server for one user of the realm (no template engine here); shown as text, never as HTML. */
export function CampaignPreview({ draft }: { draft: Pick<CampaignValues, 'realm_uid' | 'type' | 'subject' | 'body' | 'use_layout'> }) {
  const { t } = useI18n();
  const [userId, setUserId] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ subject: string; body: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setError(null);
    setPreview(null);
    try {
      const { data } = await admin.POST('/messaging/campaigns/preview', { body: { realm_uid: draft.realm_uid, type: draft.type, subject: draft.subject, body: draft.body, use_layout: draft.type === 'mailing' && draft.use_layout, user_id: Number(userId) } });
      setPreview(data!);
    } catch (caught) { setError(caught); }
  };
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Group align="flex-end">
          <UserSelect realmUid={draft.realm_uid} label={t('engagement.previewUser')} value={userId} onChange={setUserId} w={320} />
          <Button variant="default" onClick={run} disabled={!userId}>{t('engagement.preview')}</Button>
        </Group>
        <div aria-live="polite">
          {error ? <Alert color="red" role="alert" data-preview-error>{messageOf(error, t)}</Alert> : null}
          {preview && (
            <Stack gap={4} data-preview>
              <Text fw={700}>{preview.subject}</Text>
              <Code block style={{ whiteSpace: 'pre-wrap' }}>{preview.body}</Code>
            </Stack>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
