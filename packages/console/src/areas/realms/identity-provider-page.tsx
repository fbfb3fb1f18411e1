import { Checkbox, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
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

type IdentityProvider = AdminComponents['schemas']['IdentityProvider'];
const route = getRouteApi('/app/realms/$realmUid/identity-provider');
const PATH = '/customers/{realm_uid}/identity_provider';

/** The realm's OpenID Connect identity provider: set, change (the secret is never shown) or remove it. */
export function IdentityProviderPage() {
  const { t } = useI18n();
  const { realmUid } = route.useParams();
  const queryClient = useQueryClient();
  const params = { path: { realm_uid: realmUid } };
  const provider = api.useQuery('get', PATH, { params }, { retry: false });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', PATH] });
  return (
    <SingletonPanel
      title={t('realms.identityProvider')}
      emptyText={t('realms.noProvider')}
      error={provider.error}
      loading={provider.isLoading}
      exists={!!provider.data}
      onDelete={async () => { await admin.DELETE(PATH, { params }); queryClient.removeQueries({ queryKey: ['get', PATH] }); await refresh(); }}
    >
      <ProviderForm key={provider.data ? 'stored' : 'new'} provider={provider.data} onSubmit={async (body) => {
        await admin.PUT(PATH, { params, body });
        notify(t('common.saved'));
        await refresh();
      }} />
    </SingletonPanel>
  );
}

type ProviderBody = { issuer: string; client_id: string; client_secret?: string; scopes: string[]; button_label: string; show_delegation_information: boolean };

function ProviderForm({ provider, onSubmit }: { provider?: IdentityProvider; onSubmit(body: ProviderBody): Promise<unknown> }) {
  const { t } = useI18n();
  const form = useForm({
    initialValues: {
      issuer: provider?.issuer ?? '', client_id: provider?.client_id ?? '', client_secret: '', scopes: (provider?.scopes ?? ['openid', 'email', 'profile']).join(' '),
      button_label: provider?.button_label ?? '', show_delegation_information: provider?.show_delegation_information ?? false,
    },
  });
  const { submit, error, guard } = useFormSubmit(form, async ({ client_secret, scopes, ...values }) => {
    await onSubmit({ ...values, scopes: scopes.split(/\s+/).filter(Boolean), ...(client_secret ? { client_secret } : {}) });
    form.setFieldValue('client_secret', '');
  }, 'identity-provider');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        <TextInput label={t('realms.issuer')} required type="url" {...form.getInputProps('issuer')} />
        <TextInput label={t('realms.clientId')} required {...form.getInputProps('client_id')} />
        <PasswordInput label={t(provider ? 'realms.clientSecretKeep' : 'realms.clientSecret')} required={!provider} autoComplete="off" {...form.getInputProps('client_secret')} />
        <TextInput label={t('realms.scopes')} {...form.getInputProps('scopes')} />
        <TextInput label={t('realms.buttonLabel')} required {...form.getInputProps('button_label')} />
        <Checkbox label={t('realms.showDelegation')} {...form.getInputProps('show_delegation_information', { type: 'checkbox' })} />
        {provider && <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{t('realms.redirectUri')}: <code>{provider.redirect_uri}</code></Text>}
        <FormActions submitting={form.submitting} />
      </Stack>
    </form>
  );
}
