import { Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { FormError, labelsIn } from '../../components/form-error';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';

export type Application = AdminComponents['schemas']['ApiApplication'];
export interface ApplicationValues { name: string; description: string; redirect_uri: string; logout_url: string }

/** Register or change an API access application: its name, description, redirect URI (also its callback) and logout URL. */
export function ApplicationForm({ item, onSubmit, onCancel }: EditFormProps<Application, ApplicationValues>) {
  const { t } = useI18n();
  const form = useForm<ApplicationValues>({
    initialValues: { name: item?.name ?? '', description: item?.description ?? '', redirect_uri: item?.redirect_uri ?? '', logout_url: item?.logout_url ?? '' },
  });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, 'application');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn({ name: 'identity.applicationName', description: 'identity.description', redirect_uri: 'identity.redirectUri', logout_url: 'identity.logoutUrl' }, t)} />
        <TextInput label={t('identity.applicationName')} required {...form.getInputProps('name')} />
        <TextInput label={t('identity.description')} {...form.getInputProps('description')} />
        <TextInput label={t('identity.redirectUri')} type="url" {...form.getInputProps('redirect_uri')} />
        <TextInput label={t('identity.logoutUrl')} type="url" {...form.getInputProps('logout_url')} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
