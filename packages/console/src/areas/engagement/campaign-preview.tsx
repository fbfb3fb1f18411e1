import { useState } from 'react';
import { Alert, Box, Button, Code, Group, Paper, Stack, Tabs, Text } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { admin } from '../../api/client';
import { messageOf } from '../../api/errors';
import { UserSelect } from '../../components/user-select';
import { useI18n } from '../../i18n/i18n';
import type { CampaignValues } from './campaign-form';

type Preview = AdminComponents['schemas']['CampaignPreview'];

/**
 * The draft rendered by the server for one user of the realm (no template engine here): the subject, then the message's
 * parts as sent. The HTML part is shown in a frame sandboxed of everything (no script, an origin of its own), the text
 * part as text.
 */
export function CampaignPreview({ draft }: { draft: Pick<CampaignValues, 'realm_uid' | 'type' | 'subject' | 'body' | 'use_layout'> }) {
  const { t } = useI18n();
  const [userId, setUserId] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setError(null);
    setPreview(null);
    try {
      const { data } = await admin.POST('/messaging/campaigns/preview', { body: { realm_uid: draft.realm_uid, type: draft.type, subject: draft.subject, body: draft.body, use_layout: draft.type === 'mailing' && draft.use_layout, user_id: Number(userId) } });
      setPreview(data!);
    } catch (caught) { setError(caught); }
  };
  const text = (value: string) => <Code block style={{ whiteSpace: 'pre-wrap' }} data-preview-text>{value}</Code>;
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
              {preview.html === null ? text(preview.text) : (
                <Tabs defaultValue="html">
                  <Tabs.List aria-label={t('engagement.previewParts')}>
                    <Tabs.Tab value="html">{t('engagement.previewHtml')}</Tabs.Tab>
                    <Tabs.Tab value="text">{t('engagement.previewText')}</Tabs.Tab>
                  </Tabs.List>
                  <Tabs.Panel value="html" pt="xs">
                    {/* A mail is read on a white page whatever the console's scheme. */}
                    <Box component="iframe" sandbox="" srcDoc={preview.html} title={t('engagement.previewFrame')} data-preview-html
                      w="100%" h={420} bg="white" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }} />
                  </Tabs.Panel>
                  <Tabs.Panel value="text" pt="xs">{text(preview.text)}</Tabs.Panel>
                </Tabs>
              )}
            </Stack>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
