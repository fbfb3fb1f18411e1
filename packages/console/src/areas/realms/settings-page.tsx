import { Checkbox, ColorInput, Fieldset, NumberInput, Paper, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { FormError, labelsIn } from '../../components/form-error';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { FormActions } from '../../components/form-actions';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { AddressesPanel } from './addresses-panel';
import { BrandingPreview } from './branding-preview';
import { LogoUpload } from './logo-upload';
import { notify } from '../../components/notify';

type Settings = AdminComponents['schemas']['RealmSettings'];
const route = getRouteApi('/app/realms/$realmUid/settings');

/** Each setting's label by its path, for its input and for a 422 that names it. */
const LABELS = {
  'settings.session_lifetime_minutes': 'realms.sessionLifetime',
  'settings.otp_code_validity_minutes': 'realms.otpValidity',
  'settings.otp_resend_wait_seconds': 'realms.otpResend',
  'settings.activation_mode': 'realms.activationMode',
  'settings.default_language': 'realms.defaultLanguage',
  'settings.pkce_plain_allowed': 'realms.pkcePlain',
  'settings.openid_connect_enabled': 'realms.openidConnect',
  'settings.signing_key_rotation_days': 'realms.signingKeyRotation',
  'settings.branding.logo_url': 'realms.logoUrl',
  'settings.branding.primary_color': 'realms.primaryColor',
  'settings.branding.page_title': 'realms.pageTitle',
} as const satisfies Record<string, MessageKey>;

const MODES: { value: Settings['activation_mode']; label: MessageKey }[] = [
  { value: 'direct', label: 'realms.modeDirect' },
  { value: 'otp', label: 'realms.modeOtp' },
  { value: 'activation_email', label: 'realms.modeActivationEmail' },
  { value: 'moderated', label: 'realms.modeModerated' },
  { value: 'invitation_only', label: 'realms.modeInvitationOnly' },
  { value: 'disabled', label: 'realms.modeDisabled' },
];

/** Colours to pick at one click, each readable as link text on the realm pages' light background. */
const SWATCHES = ['#1d4ed8', '#0f766e', '#b91c1c', '#7c3aed', '#c2410c', '#374151'];

/** The realm's sign-in settings (sessions, one-time codes, PKCE, sign-up mode, language and branding) and its addresses. */
export function SettingsPage() {
  const { realmUid } = route.useParams();
  const realm = api.useQuery('get', '/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } } });
  if (!realm.data) return null;
  // Keyed by realm, not by version: a save must not reset what the member types next.
  return (
    <Stack>
      <SettingsForm key={realmUid} realmUid={realmUid} realmName={realm.data.name} settings={realm.data.settings} />
      <AddressesPanel realmUid={realmUid} />
    </Stack>
  );
}

function SettingsForm({ realmUid, realmName, settings }: { realmUid: string; realmName: string; settings: Settings }) {
  const { t } = useI18n();
  const { can } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<{ settings: Settings }>({ initialValues: { settings } });
  const { submit, error, guard } = useFormSubmit(form, async ({ settings: next }) => {
    const branding = { logo_url: next.branding.logo_url || null, primary_color: next.branding.primary_color || null, page_title: next.branding.page_title || null };
    await admin.PUT('/realms/{realm_uid}', { params: { path: { realm_uid: realmUid } }, body: { settings: { ...next, branding } } });
    notify(t('common.saved'));
    await queryClient.invalidateQueries({ queryKey: ['get', '/realms/{realm_uid}'] });
    // OpenID Connect on or off changes the addresses shown below.
    await queryClient.invalidateQueries({ queryKey: ['get', '/customers/{realm_uid}/addresses'] });
  }, 'realm-settings');
  const text = (path: `settings.branding.${keyof Settings['branding']}`) => {
    const props = form.getInputProps(path);
    return { ...props, value: props.value ?? '' };
  };

  return (
    <Paper withBorder p="md" maw={960}>
      <Title order={2} size="h3" mb="sm">{t('realms.settings')}</Title>
      <form onSubmit={submit}>
        <fieldset disabled={!can('realms.manage', realmUid)} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack>
            <UnsavedChanges {...guard} />
            <FormError error={error} labels={labelsIn(LABELS, t)} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput label={t(LABELS['settings.session_lifetime_minutes'])} min={1} max={525600} allowDecimal={false} {...form.getInputProps('settings.session_lifetime_minutes')} />
              <NumberInput label={t(LABELS['settings.otp_code_validity_minutes'])} min={1} max={30} allowDecimal={false} {...form.getInputProps('settings.otp_code_validity_minutes')} />
              <NumberInput label={t(LABELS['settings.otp_resend_wait_seconds'])} min={0} max={3600} allowDecimal={false} {...form.getInputProps('settings.otp_resend_wait_seconds')} />
              <Select label={t(LABELS['settings.activation_mode'])} allowDeselect={false} data={MODES.map((mode) => ({ value: mode.value, label: t(mode.label) }))} {...form.getInputProps('settings.activation_mode')} />
              <Select label={t(LABELS['settings.default_language'])} allowDeselect={false} data={[{ value: 'en', label: 'English' }, { value: 'es', label: 'Español' }]} {...form.getInputProps('settings.default_language')} />
            </SimpleGrid>
            <Checkbox label={t(LABELS['settings.pkce_plain_allowed'])} {...form.getInputProps('settings.pkce_plain_allowed', { type: 'checkbox' })} />
            <Checkbox label={t(LABELS['settings.openid_connect_enabled'])} {...form.getInputProps('settings.openid_connect_enabled', { type: 'checkbox' })} />
            {form.values.settings.openid_connect_enabled && (
              <NumberInput label={t(LABELS['settings.signing_key_rotation_days'])} description={t('realms.signingKeyRotationHelp')} min={1} max={365} allowDecimal={false} maw={360}
                value={form.values.settings.signing_key_rotation_days ?? ''} error={form.errors['settings.signing_key_rotation_days']}
                onChange={(days) => form.setFieldValue('settings.signing_key_rotation_days', typeof days === 'number' ? days : null)} />
            )}
            <Fieldset legend={t('realms.branding')}>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Stack>
                  <TextInput label={t(LABELS['settings.branding.logo_url'])} {...text('settings.branding.logo_url')} />
                  <LogoUpload realmName={realmName} onUploaded={(address) => form.setFieldValue('settings.branding.logo_url', address)} />
                  <ColorInput label={t(LABELS['settings.branding.primary_color'])} format="hex" swatches={SWATCHES} eyeDropperButtonProps={{ 'aria-label': t('realms.eyeDropper') }} {...text('settings.branding.primary_color')} />
                  <TextInput label={t(LABELS['settings.branding.page_title'])} {...text('settings.branding.page_title')} />
                </Stack>
                <BrandingPreview realmName={realmName} branding={form.values.settings.branding} />
              </SimpleGrid>
            </Fieldset>
            <FormActions submitting={form.submitting} />
          </Stack>
        </fieldset>
      </form>
    </Paper>
  );
}
