import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Textarea } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { admin } from '../../api/client';
import { MemberSelect } from '../../components/member-select';
import { useI18n } from '../../i18n/i18n';
import { ActionForm } from './action-form';
import { GroupSelect } from './group-select';
import { notify } from '../../components/notify';

type Submission = AdminComponents['schemas']['Submission'];
type Action = 'assign' | 'extend' | 'cancel';

/** A reviewer's actions on an open submission: assign it (a group, a member, or a member of a group), extend its deadline, cancel it. */
export function SubmissionActions({ realmUid, submission, onDone }: { realmUid: string; submission: Submission; onDone(): Promise<unknown> }) {
  const { t } = useI18n();
  const [action, setAction] = useState<Action | null>(null);
  const params = { params: { path: { realm_uid: realmUid, id: submission.id } } };
  const close = () => setAction(null);
  const done = async () => {
    close();
    notify(t('common.saved'));
    await onDone();
  };
  const assignee = submission.assignee;
  const titles = { assign: t('originations.assign'), extend: t('originations.extendDeadline'), cancel: t('originations.cancelSubmission') };

  return (
    <>
      <Group>
        <Button variant="default" onClick={() => setAction('assign')}>{titles.assign}</Button>
        {submission.due_extension_days !== null && <Button variant="default" onClick={() => setAction('extend')}>{titles.extend}</Button>}
        <Button color="red" variant="outline" onClick={() => setAction('cancel')}>{titles.cancel}</Button>
      </Group>
      <Modal opened={action !== null} onClose={close} title={action ? titles[action] : ''}>
        {action === 'assign' && (
          <ActionForm name="submission-assign" onCancel={close}
            initialValues={{
              group_id: assignee && assignee.type !== 'user' ? String(assignee.type === 'group' ? assignee.id : assignee.group_id) : null as string | null,
              admin_id: assignee && assignee.type !== 'group' ? String(assignee.id) : null as string | null,
            }}
            onSubmit={async (values) => {
              await admin.PUT('/customers/{realm_uid}/submissions/{id}/assignee', { ...params, body: {
                group_id: values.group_id ? Number(values.group_id) : null, admin_id: values.admin_id ? Number(values.admin_id) : null,
              } });
              await done();
            }}>
            {(form) => (
              <>
                <GroupSelect realmUid={realmUid} label={t('originations.group')} selectedLabel={assignee?.type === 'group' ? assignee.name : assignee?.type === 'user_in_group' ? assignee.group_name : undefined} {...form.getInputProps('group_id')} />
                <MemberSelect label={t('originations.reviewer')} description={t('originations.assignHelp')} selectedLabel={assignee && assignee.type !== 'group' ? assignee.name : undefined} {...form.getInputProps('admin_id')} />
              </>
            )}
          </ActionForm>
        )}
        {action === 'extend' && (
          <ActionForm name="submission-extend" onCancel={close} initialValues={{ days: 7 as number | string }} onSubmit={async (values) => {
            await admin.POST('/customers/{realm_uid}/submissions/{id}/extend_deadline', { ...params, body: { days: Number(values.days) } });
            await done();
          }}>
            {(form) => <NumberInput label={t('originations.days')} required min={1} max={365} allowDecimal={false} data-autofocus {...form.getInputProps('days')} />}
          </ActionForm>
        )}
        {action === 'cancel' && (
          <ActionForm name="submission-cancel" onCancel={close} initialValues={{ reason: '' }} onSubmit={async (values) => {
            await admin.POST('/customers/{realm_uid}/submissions/{id}/cancel', { ...params, body: { reason: values.reason } });
            await done();
          }}>
            {(form) => <Textarea label={t('originations.reason')} description={t('originations.reasonHelp')} required autosize minRows={3} data-autofocus {...form.getInputProps('reason')} />}
          </ActionForm>
        )}
      </Modal>
    </>
  );
}
