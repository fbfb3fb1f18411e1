import { Alert, Stack, Text, Title } from '@mantine/core';
import { ButtonLink } from './links';
import { messageOf, statusOf } from '../api/errors';
import { useI18n } from '../i18n/i18n';

/** The not-found page: unknown URLs and stale links to deleted records. */
export function NotFound() {
  const { t } = useI18n();
  return (
    <Stack align="flex-start" p="md">
      <Title order={1}>{t('common.notFoundTitle')}</Title>
      <Text>{t('common.notFoundText')}</Text>
      <ButtonLink to="/" variant="light">{t('common.home')}</ButtonLink>
    </Stack>
  );
}

/** A failed read: 404 shows the not-found page, anything else its own message. */
export function ErrorView({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (statusOf(error) === 404) return <NotFound />;
  return <Alert color="red" role="alert">{messageOf(error, t)}</Alert>;
}
