import { Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents } from '@atrium/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { MemberMultiSelect, memberOption } from '../../components/member-select';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';

type Group = AdminComponents['schemas']['ReviewerGroup'];
export interface GroupValues { name: string; member_ids: string[] }

/** The body the admin API takes for the form's values. */
export const groupBody = (values: GroupValues) => ({ name: values.name, member_ids: values.member_ids.map(Number) });

/** Create or edit a reviewer group: its name and its members (team members who may review the realm's submissions). */
export function GroupForm({ item, onSubmit, onCancel }: EditFormProps<Group, GroupValues>) {
  const { t } = useI18n();
  const form = useForm<GroupValues>({ initialValues: { name: item?.name ?? '', member_ids: item?.members.map((member) => String(member.id)) ?? [] } });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, `reviewer-group:${item?.id ?? 'new'}`);
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} />
        <TextInput label={t('originations.groupName')} required data-autofocus {...form.getInputProps('name')} />
        <MemberMultiSelect label={t('originations.members')} description={t('originations.membersHelp')} known={item?.members.map(memberOption) ?? []}
          {...form.getInputProps('member_ids')} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
