import { Alert, Button, Code, CopyButton, Stack } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';

/** A secret the server returns only once (a new OAuth client's), with a copy button. */
export function SecretOnce({ secret, onClose }: { secret: string; onClose(): void }) {
  const { t } = useI18n();
  return (
    <Stack>
      <Alert color="yellow" role="status">{t('realms.secretOnce')}</Alert>
      <Code block aria-label={t('realms.secret')} data-secret style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{secret}</Code>
      <CopyButton value={secret}>
        {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? t('realms.copied') : t('realms.copy')}</Button>}
      </CopyButton>
      <Button onClick={onClose}>{t('common.close')}</Button>
    </Stack>
  );
}
