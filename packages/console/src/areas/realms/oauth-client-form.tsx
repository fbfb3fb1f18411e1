import { Checkbox, Fieldset, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormError, labelsIn } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';

type OAuthClient = AdminComponents['schemas']['OAuthClient'];
export type OAuthClientBody = Pick<OAuthClient, 'name' | 'redirect_uris' | 'scopes' | 'confidential' | 'post_logout_redirect_uris' | 'backchannel_logout_uri'
  | 'refresh_token_lifetime_seconds' | 'refresh_token_idle_seconds' | 'jwt_access_token_seconds' | 'id_token_signed_response_alg' | 'custom_fields_claim' | 'client_credentials_scopes'>;

const LABELS = {
  name: 'realms.name', redirect_uris: 'realms.redirectUris', scopes: 'realms.scopes', confidential: 'realms.confidential',
  post_logout_redirect_uris: 'realms.postLogoutUris', backchannel_logout_uri: 'realms.backchannelUri',
  refresh_token_lifetime_seconds: 'realms.refreshLifetime', refresh_token_idle_seconds: 'realms.refreshIdle',
  jwt_access_token_seconds: 'realms.jwtAccessTokens', id_token_signed_response_alg: 'realms.idTokenAlg', custom_fields_claim: 'realms.customFieldsClaim',
  client_credentials_scopes: 'realms.clientCredentialsScopes',
} as const;

/** The scopes a realm knows: spec 5.2's, then OpenID Connect's (asked for only where the realm enables it). */
const SCOPES = ['public', 'admin', 'openid', 'profile', 'email', 'offline_access'];
/** The scopes a client may hold as itself (client_credentials): no user's. */
const OWN_SCOPES = ['public', 'admin'];

const lines = (text: string, separator: RegExp) => text.split(separator).map((item) => item.trim()).filter(Boolean);

/** Create or edit an OAuth client: name, redirect URIs one per line, scopes, confidential, and its OpenID Connect settings. */
export function OAuthClientForm({ client, onSubmit, onCancel }: { client?: OAuthClient; onSubmit(body: OAuthClientBody): Promise<unknown>; onCancel(): void }) {
  const { t } = useI18n();
  const form = useForm({
    initialValues: {
      name: client?.name ?? '', redirect_uris: (client?.redirect_uris ?? []).join('\n'), scopes: client?.scopes ?? [], confidential: client?.confidential ?? true,
      post_logout_redirect_uris: (client?.post_logout_redirect_uris ?? []).join('\n'), backchannel_logout_uri: client?.backchannel_logout_uri ?? '',
      refresh_token_lifetime_seconds: client?.refresh_token_lifetime_seconds ?? 2_592_000, refresh_token_idle_seconds: client?.refresh_token_idle_seconds ?? 1_209_600,
      jwt_access_token_seconds: client?.jwt_access_token_seconds ?? '' as number | '',
      id_token_signed_response_alg: client?.id_token_signed_response_alg ?? 'RS256', custom_fields_claim: client?.custom_fields_claim ?? '',
      client_credentials_scopes: client?.client_credentials_scopes ?? [],
    },
  });
  const { submit, error, guard } = useFormSubmit(form, (values) => onSubmit({
    name: values.name, confidential: values.confidential, redirect_uris: lines(values.redirect_uris, /\n/), scopes: values.scopes,
    post_logout_redirect_uris: lines(values.post_logout_redirect_uris, /\n/), backchannel_logout_uri: values.backchannel_logout_uri.trim() || null,
    refresh_token_lifetime_seconds: Number(values.refresh_token_lifetime_seconds), refresh_token_idle_seconds: Number(values.refresh_token_idle_seconds),
    jwt_access_token_seconds: values.jwt_access_token_seconds === '' ? null : Number(values.jwt_access_token_seconds),
    id_token_signed_response_alg: values.id_token_signed_response_alg, custom_fields_claim: values.custom_fields_claim.trim() || null,
    client_credentials_scopes: values.client_credentials_scopes,
  }), `oauth-client:${client?.id ?? 'new'}`);
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn(LABELS, t)} />
        <TextInput label={t('realms.name')} required {...form.getInputProps('name')} />
        <Textarea label={t('realms.redirectUris')} autosize minRows={2} {...form.getInputProps('redirect_uris')} />
        <MultiSelect label={t('realms.scopes')} description={t('realms.scopesHelp')} data={SCOPES} {...form.getInputProps('scopes')} />
        <Checkbox label={t('realms.confidential')} {...form.getInputProps('confidential', { type: 'checkbox' })} />
        <Fieldset legend={t('realms.openidClient')}>
          <Stack>
            <Textarea label={t(LABELS.post_logout_redirect_uris)} autosize minRows={1} {...form.getInputProps('post_logout_redirect_uris')} />
            <TextInput label={t(LABELS.backchannel_logout_uri)} {...form.getInputProps('backchannel_logout_uri')} />
            <SimpleGrid cols={2}>
              <NumberInput label={t(LABELS.refresh_token_lifetime_seconds)} min={60} allowDecimal={false} {...form.getInputProps('refresh_token_lifetime_seconds')} />
              <NumberInput label={t(LABELS.refresh_token_idle_seconds)} min={60} allowDecimal={false} {...form.getInputProps('refresh_token_idle_seconds')} />
            </SimpleGrid>
            <NumberInput label={t(LABELS.jwt_access_token_seconds)} description={t('realms.jwtAccessTokensHelp')} min={60} max={3600} allowDecimal={false} {...form.getInputProps('jwt_access_token_seconds')} />
            <SimpleGrid cols={2}>
              <Select label={t(LABELS.id_token_signed_response_alg)} allowDeselect={false} data={['RS256', 'ES256']} {...form.getInputProps('id_token_signed_response_alg')} />
              <TextInput label={t(LABELS.custom_fields_claim)} description={t('realms.customFieldsClaimHelp')} {...form.getInputProps('custom_fields_claim')} />
            </SimpleGrid>
            <MultiSelect label={t(LABELS.client_credentials_scopes)} description={t('realms.clientCredentialsScopesHelp')} data={OWN_SCOPES} {...form.getInputProps('client_credentials_scopes')} />
          </Stack>
        </Fieldset>
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
