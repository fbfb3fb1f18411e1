import { useState } from 'react';
import { Checkbox, MultiSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { FormError, labelsIn } from '../../components/form-error';
import { RealmMultiSelect } from '../../components/realm-select';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';

type Webhook = AdminComponents['schemas']['WebhookEndpoint'];
export interface WebhookValues { url: string; description: string; event_types: string[]; all_realms: boolean; realm_uids: string[]; active: boolean }

/** The body the admin API takes for the form's values. */
export const webhookBody = (values: WebhookValues) => ({
  url: values.url, description: values.description, event_types: values.event_types, active: values.active,
  realm_uids: values.all_realms ? ('all' as const) : values.realm_uids,
});

/** Create or edit a webhook endpoint: its address, the event types it takes (from the server's list) and its realms. */
export function WebhookForm({ item, onSubmit, onCancel }: EditFormProps<Webhook, WebhookValues>) {
  const { t } = useI18n();
  const types = api.useQuery('get', '/webhooks/event_types');
  const form = useForm<WebhookValues>({
    initialValues: {
      url: item?.url ?? '', description: item?.description ?? '', event_types: item?.event_types ?? [],
      all_realms: item ? item.realm_uids === 'all' : true, realm_uids: item && item.realm_uids !== 'all' ? item.realm_uids : [], active: item?.active ?? true,
    },
  });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'webhook');
  const typeNames = types.data?.event_types.map((entry) => entry.type) ?? [];
  const [known] = useState(() => form.values.realm_uids.map((uid) => ({ value: uid, label: uid })));
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn({ url: 'identity.webhookUrl', description: 'identity.description', event_types: 'identity.eventTypes', realm_uids: 'identity.realms', active: 'identity.active' }, t)} />
        <TextInput label={t('identity.webhookUrl')} required type="url" {...form.getInputProps('url')} />
        <TextInput label={t('identity.description')} {...form.getInputProps('description')} />
        <MultiSelect label={t('identity.eventTypes')} required searchable data={[...new Set([...typeNames, ...form.values.event_types])]} {...form.getInputProps('event_types')} />
        <Checkbox label={t('identity.allRealms')} {...form.getInputProps('all_realms', { type: 'checkbox' })} />
        {!form.values.all_realms && (
          <RealmMultiSelect label={t('identity.realms')} known={known} value={form.values.realm_uids} error={form.errors.realm_uids as string | undefined}
            onChange={(uids) => form.setFieldValue('realm_uids', uids)} />
        )}
        <Checkbox label={t('identity.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
