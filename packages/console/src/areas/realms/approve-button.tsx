import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { admin } from '../../api/client';
import { messageOf } from '../../api/errors';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

/** Approves a moderated sign-up (POST .../users/{id}/activate): the user may sign in, and leaves the list of those awaiting approval. */
export function ApproveButton({ realmUid, user }: { realmUid: string; user: { id: number; email: string } }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const approve = async () => {
    try {
      await admin.POST('/customers/{realm_uid}/users/{id}/activate', { params: { path: { realm_uid: realmUid, id: user.id } } });
      notify(t('realms.approved', { email: user.email }));
      await queryClient.invalidateQueries({ queryKey: ['get', '/customers/{realm_uid}/users'] });
    } catch (error) {
      notify(messageOf(error, t), 'red');
    }
  };
  return <Button size="compact-sm" variant="default" aria-label={t('realms.approveUser', { email: user.email })} onClick={() => void approve()}>{t('realms.approve')}</Button>;
}
