import { Button, Group, NumberInput, Paper, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { FormError, labelsIn } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { TwoFactorSection } from './two-factor-section';
import { notify } from '../../components/notify';

type Account = AdminComponents['schemas']['Account'];
interface AccountValues { name: string; upload_max_bytes: number; allowed_extensions: string[]; second_factor_required: boolean }

/** The account's settings (GET/PUT /account), for members who may read them, and the member's own two-factor sign-in. */
export function AccountPage() {
  const { t } = useI18n();
  const { can } = useSession();
  return (
    <Stack>
      <Title order={1}>{t('identity.account')}</Title>
      {can('account.read') && <AccountSettings />}
      <TwoFactorSection />
    </Stack>
  );
}

function AccountSettings() {
  const { t } = useI18n();
  const account = api.useQuery('get', '/account');
  if (account.error) return <ErrorView error={account.error} />;
  if (!account.data) return <Text role="status">{t('common.loading')}</Text>;
  return (
    <Paper withBorder p="md" maw={560}>
      <AccountForm key={account.data.updated_at} account={account.data} />
    </Paper>
  );
}

function AccountForm({ account }: { account: Account }) {
  const { t } = useI18n();
  const { can } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<AccountValues>({
    initialValues: {
      name: account.name, upload_max_bytes: account.upload_max_bytes, allowed_extensions: account.allowed_extensions,
      second_factor_required: account.second_factor_required,
    },
  });
  const readOnly = !can('account.manage');
  const { submit, error, guard } = useFormSubmit(form, async (values) => {
    await admin.PUT('/account', { body: values });
    notify(t('common.saved'));
    await queryClient.invalidateQueries({ queryKey: ['get', '/account'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/two_factor'] });
  }, 'account');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn({ name: 'identity.accountName', upload_max_bytes: 'identity.uploadLimit', allowed_extensions: 'identity.allowedExtensions' }, t)} />
        <TextInput label={t('identity.accountName')} required readOnly={readOnly} {...form.getInputProps('name')} />
        <NumberInput label={t('identity.uploadLimit')} allowDecimal={false} readOnly={readOnly} {...form.getInputProps('upload_max_bytes')} />
        <TagsInput label={t('identity.allowedExtensions')} description={t('identity.allowedExtensionsHint')} readOnly={readOnly} {...form.getInputProps('allowed_extensions')} />
        <Switch label={t('identity.requireTwoFactor')} description={t('identity.requireTwoFactorHint')} disabled={readOnly}
          {...form.getInputProps('second_factor_required', { type: 'checkbox' })} />
        {!readOnly && (
          <Group justify="flex-end">
            <Button type="submit" loading={form.submitting}>{t('common.save')}</Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
