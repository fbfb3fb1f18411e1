import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { FormActions } from '../../components/form-actions';
import { SingletonPanel } from './singleton-panel';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { notify } from '../../components/notify';

type Zendesk = AdminComponents['schemas']['ZendeskIntegration'];
const route = getRouteApi('/app/realms/$realmUid/integrations');
const PATH = '/customers/{realm_uid}/integrations/zendesk';

/** The realm's integrations: Zendesk single sign-on (the shared secret is never shown). */
export function IntegrationsPage() {
  const { t } = useI18n();
  const { realmUid } = route.useParams();
  const queryClient = useQueryClient();
  const params = { path: { realm_uid: realmUid } };
  const zendesk = api.useQuery('get', PATH, { params }, { retry: false });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', PATH] });
  return (
    <SingletonPanel
      title={t('realms.zendesk')}
      emptyText={t('realms.notConfigured')}
      error={zendesk.error}
      loading={zendesk.isLoading}
      exists={!!zendesk.data}
      onDelete={async () => { await admin.DELETE(PATH, { params }); queryClient.removeQueries({ queryKey: ['get', PATH] }); await refresh(); }}
    >
      <ZendeskForm key={zendesk.data ? 'stored' : 'new'} zendesk={zendesk.data} onSubmit={async (body) => {
        await admin.PUT(PATH, { params, body });
        notify(t('common.saved'));
        await refresh();
      }} />
    </SingletonPanel>
  );
}

function ZendeskForm({ zendesk, onSubmit }: { zendesk?: Zendesk; onSubmit(body: { subdomain: string; key_id: string; shared_secret?: string }): Promise<unknown> }) {
  const { t } = useI18n();
  const form = useForm({ initialValues: { subdomain: zendesk?.subdomain ?? '', key_id: zendesk?.key_id ?? '', shared_secret: '' } });
  const { submit, error, guard } = useFormSubmit(form, async ({ shared_secret, ...values }) => {
    await onSubmit({ ...values, ...(shared_secret ? { shared_secret } : {}) });
    form.setFieldValue('shared_secret', '');
  }, 'zendesk');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        <TextInput label={t('realms.subdomain')} required {...form.getInputProps('subdomain')} />
        <TextInput label={t('realms.keyId')} required {...form.getInputProps('key_id')} />
        <PasswordInput label={t(zendesk ? 'realms.sharedSecretKeep' : 'realms.sharedSecret')} required={!zendesk} autoComplete="off" {...form.getInputProps('shared_secret')} />
        <FormActions submitting={form.submitting} />
      </Stack>
    </form>
  );
}
