import { Alert, Button, Code, CopyButton, Stack } from '@mantine/core';
import { useI18n } from '../i18n/i18n';

/** A secret the server returns only once (an OAuth client's, a webhook's), with a copy button and a warning. */
export function SecretOnce({ secret, label, warning, onClose }: { secret: string; label: string; warning: string; onClose(): void }) {
  const { t } = useI18n();
  return (
    <Stack>
      <Alert color="yellow" role="status">{warning}</Alert>
      <Code block aria-label={label} data-secret style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{secret}</Code>
      <CopyButton value={secret}>
        {({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? t('common.copied') : t('common.copy')}</Button>}
      </CopyButton>
      <Button onClick={onClose}>{t('common.close')}</Button>
    </Stack>
  );
}
