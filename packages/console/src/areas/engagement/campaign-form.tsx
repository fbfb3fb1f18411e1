import { useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormError, showFieldErrors } from '../../components/form-error';
import { RealmSelect } from '../../components/realm-select';
import { useI18n } from '../../i18n/i18n';
import { CampaignPreview } from './campaign-preview';

type Campaign = AdminComponents['schemas']['Campaign'];
export interface CampaignValues { realm_uid: string; name: string; type: 'mailing' | 'notification'; subject: string; body: string; use_layout: boolean }

/** Create (realm chosen) or edit a campaign's name, type and Liquid subject and body, with the server's preview of the draft. */
export function CampaignForm({ campaign, onSubmit, onCancel }: { campaign?: Campaign; onSubmit(values: CampaignValues): Promise<unknown>; onCancel?(): void }) {
  const { t } = useI18n();
  const form = useForm<CampaignValues>({
    initialValues: { realm_uid: campaign?.realm_uid ?? '', name: campaign?.name ?? '', type: campaign?.type ?? 'mailing', subject: campaign?.subject ?? '', body: campaign?.body ?? '', use_layout: campaign?.use_layout ?? false },
  });
  const [error, setError] = useState<unknown>(null);
  const submit = form.onSubmit(async (values) => {
    form.clearErrors();
    setError(null);
    // A notification has no layout.
    try { await onSubmit({ ...values, use_layout: values.type === 'mailing' && values.use_layout }); } catch (caught) { showFieldErrors(form, caught); setError(caught); }
  });
  return (
    <form onSubmit={submit}>
      <Stack>
        <FormError error={error} />
        {!campaign && <RealmSelect label={t('engagement.realm')} required value={form.values.realm_uid || null} onChange={(uid) => form.setFieldValue('realm_uid', uid ?? '')} />}
        <TextInput label={t('engagement.campaignName')} required {...form.getInputProps('name')} />
        <NativeSelect label={t('engagement.type')} data={[{ value: 'mailing', label: t('engagement.mailing') }, { value: 'notification', label: t('engagement.notification') }]} {...form.getInputProps('type')} />
        <TextInput label={t('engagement.subject')} required {...form.getInputProps('subject')} />
        <Textarea label={t('engagement.body')} required autosize minRows={6} ff="monospace" {...form.getInputProps('body')} />
        {form.values.type === 'mailing' && (
          <Checkbox label={t('engagement.useLayout')} description={t('engagement.useLayoutHelp')} {...form.getInputProps('use_layout', { type: 'checkbox' })} />
        )}
        {form.values.realm_uid && <CampaignPreview draft={form.values} />}
        <Group justify="flex-end">
          {onCancel && <Button variant="default" onClick={onCancel}>{t('common.cancel')}</Button>}
          <Button type="submit" loading={form.submitting}>{t('common.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
