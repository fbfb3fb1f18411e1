import { Button, Checkbox, Group } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { admin } from '../../api/client';
import { FormError } from '../../components/form-error';
import { UserSelect } from '../../components/user-select';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';

/** Starts a submission of the origination for a user of the realm (now, or waiting for the first task), then shows it. */
export function StartSubmission({ realmUid, originationId }: { realmUid: string; originationId: number }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const form = useForm<{ user_id: string | null; start: boolean }>({ initialValues: { user_id: null, start: true } });
  const { submit, error, guard } = useFormSubmit(form, async (values) => {
    const { data } = await admin.POST('/customers/{realm_uid}/originations/{id}/submissions', {
      params: { path: { realm_uid: realmUid, id: originationId } }, body: { user_id: Number(values.user_id), start: values.start },
    });
    await navigate({ to: '/submissions/$realmUid/$submissionId', params: { realmUid, submissionId: String(data!.id) } });
  }, 'start-submission');
  return (
    <form onSubmit={submit}>
      <UnsavedChanges {...guard} />
      <FormError error={error} />
      <Group align="flex-end" wrap="wrap">
        <UserSelect realmUid={realmUid} label={t('originations.user')} required w={360} {...form.getInputProps('user_id')} />
        <Checkbox label={t('originations.startNow')} mb={8} {...form.getInputProps('start', { type: 'checkbox' })} />
        <Button type="submit" loading={form.submitting} disabled={!form.values.user_id}>{t('originations.start')}</Button>
      </Group>
    </form>
  );
}
