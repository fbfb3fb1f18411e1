import { Button, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { admin } from '../../api/client';
import { messageOf } from '../../api/errors';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../components/notify';

/** Asks first (the impersonation is recorded), then opens the one-time sign-in URL in a new tab. */
export function ImpersonateButton({ realmUid, userId, name }: { realmUid: string; userId: number; name: string }) {
  const { t } = useI18n();
  const confirm = () => modals.openConfirmModal({
    title: t('realms.impersonateTitle', { name }),
    children: <Text>{t('realms.impersonateText')}</Text>,
    labels: { confirm: t('realms.impersonateConfirm'), cancel: t('common.cancel') },
    onConfirm: async () => {
      try {
        const { data } = await admin.POST('/customers/{realm_uid}/users/{id}/impersonate', { params: { path: { realm_uid: realmUid, id: userId } } });
        // Only a web address is opened (never a javascript: or data: URL, whatever the answer held).
        const url = new URL(data!.url);
        if (url.protocol === 'https:' || url.protocol === 'http:') window.open(url.href, '_blank', 'noopener,noreferrer');
      } catch (error) {
        notify(messageOf(error, t), 'red');
      }
    },
  });
  return <Button variant="default" onClick={confirm}>{t('realms.impersonate')}</Button>;
}
