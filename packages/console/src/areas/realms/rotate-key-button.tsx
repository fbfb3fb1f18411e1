import { Button } from '@mantine/core';
import { modals } from '@mantine/modals';
import { admin } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { notify } from '../../components/notify';

/** OpenID Connect: a new key signs the realm's ID tokens, after a confirmation (members who manage the realm). */
export function RotateKeyButton({ realmUid }: { realmUid: string }) {
  const { t } = useI18n();
  const { can } = useSession();
  if (!can('realms.manage', realmUid)) return null;
  return (
    <Button variant="default" mt="sm" onClick={() => modals.openConfirmModal({
      title: t('realms.rotateKey'), children: t('realms.rotateKeyConfirm'),
      labels: { confirm: t('realms.rotateKey'), cancel: t('common.cancel') },
      onConfirm: async () => {
        const { error } = await admin.POST('/customers/{realm_uid}/signing_keys/rotate', { params: { path: { realm_uid: realmUid } } });
        if (!error) notify(t('realms.keyRotated'));
      },
    })}>{t('realms.rotateKey')}</Button>
  );
}
