import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
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

/** A read that got no answer (offline, or the server is down): Retry asks again for every read of the screen that failed. */
function Unreachable() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const retry = () => queryClient.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
  return (
    // The title in the body's colour: Mantine's yellow title lacks contrast on its light background.
    <Alert color="yellow" role="alert">
      <Text fw={700}>{t('common.offlineTitle')}</Text>
      <Text size="sm">{t('common.offlineText')}</Text>
      <Button size="xs" mt="sm" variant="default" onClick={() => void retry()}>{t('common.retry')}</Button>
    </Alert>
  );
}

/** A failed read: 404 shows the not-found page, no answer at all the offline state with Retry, anything else its own message. */
export function ErrorView({ error }: { error: unknown }) {
  const { t } = useI18n();
  const status = statusOf(error);
  if (status === 404) return <NotFound />;
  if (status === null) return <Unreachable />;
  return <Alert color="red" role="alert">{messageOf(error, t)}</Alert>;
}
