import { Checkbox, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormError, labelsIn } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';

type OAuthClient = AdminComponents['schemas']['OAuthClient'];
export type OAuthClientBody = Pick<OAuthClient, 'name' | 'redirect_uris' | 'scopes' | 'confidential'>;

const lines = (text: string, separator: RegExp) => text.split(separator).map((item) => item.trim()).filter(Boolean);

/** Create or edit an OAuth client: name, redirect URIs one per line, scopes, confidential. */
export function OAuthClientForm({ client, onSubmit, onCancel }: { client?: OAuthClient; onSubmit(body: OAuthClientBody): Promise<unknown>; onCancel(): void }) {
  const { t } = useI18n();
  const form = useForm({
    initialValues: { name: client?.name ?? '', redirect_uris: (client?.redirect_uris ?? []).join('\n'), scopes: (client?.scopes ?? []).join(' '), confidential: client?.confidential ?? true },
  });
  const { submit, error, guard } = useFormSubmit(form, (values) => onSubmit({
    name: values.name, confidential: values.confidential, redirect_uris: lines(values.redirect_uris, /\n/), scopes: lines(values.scopes, /\s+/),
  }), `oauth-client:${client?.id ?? 'new'}`);
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn({ name: 'realms.name', redirect_uris: 'realms.redirectUris', scopes: 'realms.scopes', confidential: 'realms.confidential' }, t)} />
        <TextInput label={t('realms.name')} required {...form.getInputProps('name')} />
        <Textarea label={t('realms.redirectUris')} autosize minRows={2} {...form.getInputProps('redirect_uris')} />
        <TextInput label={t('realms.scopes')} {...form.getInputProps('scopes')} />
        <Checkbox label={t('realms.confidential')} {...form.getInputProps('confidential', { type: 'checkbox' })} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
