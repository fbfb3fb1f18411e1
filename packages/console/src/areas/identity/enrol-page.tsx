import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { TwoFactorSection } from './two-factor-section';

/** What a member without a second factor sees while the account requires one: enrolment, or signing out. */
export function EnrolPage() {
  const { t } = useI18n();
  const session = useSession();
  return (
    <Center mih="100vh" component="main" id="main" p="md">
      <Stack w={560} maw="95vw">
        <Title order={1} size="h2">{t('identity.enrolTitle')}</Title>
        <TwoFactorSection onEnrolled={session.enrolled} />
        <Group><Button variant="subtle" onClick={() => void session.signOut()}>{t('common.signOut')}</Button></Group>
      </Stack>
    </Center>
  );
}
