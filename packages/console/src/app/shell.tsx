import { Anchor, AppShell, Burger, Button, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { spotlight } from '@mantine/spotlight';
import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { navGroups } from '../areas/nav';
import { AnchorLink, NavLinkLink } from '../components/links';
import { useI18n } from '../i18n/i18n';
import { useSession } from '../session/session';
import { Preferences } from './preferences';
import { Shortcuts } from './shortcuts';
import { AppSpotlight } from './spotlight';
import classes from './shell.module.css';

const EnrolPage = lazy(() => import('../areas/identity/enrol-page').then((m) => ({ default: m.EnrolPage })));

/** The signed-in frame: skip link, header, main navigation, and the screen in <main>. Signed out, goes to sign-in and back. */
export function Shell() {
  const { t } = useI18n();
  const session = useSession();
  const [opened, { toggle }] = useDisclosure();
  const location = useRouterState({ select: (state) => state.location });
  const navigate = useNavigate();
  const signedOut = session.state.status === 'signed-out' ? session.state : null;

  useEffect(() => {
    if (!signedOut) return;
    void navigate({ to: '/sign-in', search: { redirect: `/admin${location.href}`, expired: signedOut.expired || undefined }, replace: true });
  // Only when the session ends: the location at that moment is where to come back to.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedOut]);

  const loading = <Text role="status" p="md">{t('common.loading')}</Text>;
  if (session.state.status !== 'signed-in') return loading;
  // The account requires a second factor and the member has none: enrolment is all there is until then.
  if (session.state.mustEnrol) return <Suspense fallback={loading}><EnrolPage /></Suspense>;
  const member = session.state.member;

  return (
    <>
      <Anchor href="#main" className={classes.skipLink}>{t('common.skipToContent')}</Anchor>
      <AppShell header={{ height: 56 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('common.mainNavigation')} />
              <AnchorLink to="/" underline="never" c="inherit"><Title order={2} size="h4">{t('common.appName')}</Title></AnchorLink>
              <Button variant="default" size="xs" onClick={() => spotlight.open()} visibleFrom="sm">{t('common.spotlightPlaceholder')} Ctrl+K</Button>
            </Group>
            <Group wrap="nowrap" gap="xs">
              <Preferences />
              <Button variant="subtle" size="xs" onClick={() => void session.signOut()}>{t('common.signOut')}</Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" component="nav" aria-label={t('common.mainNavigation')}>
          <AppShell.Section grow component={ScrollArea}>
            <Text size="sm" c="dimmed" px="sm" pb="xs" className={classes.member}>{member.email}</Text>
            {navGroups.map((group) => {
              const items = group.items.filter((item) => !item.permission || session.can(item.permission));
              if (items.length === 0) return null;
              return (
                <Stack gap={0} key={group.label} mb="sm">
                  <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm">{t(group.label)}</Text>
                  {items.map((item) => (
                    <NavLinkLink key={item.to} to={item.to} label={t(item.label)}
                      active={location.pathname === item.to || location.pathname.startsWith(`${item.to}/`)} />
                  ))}
                </Stack>
              );
            })}
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main id="main" tabIndex={-1} className={classes.main}>
          <Outlet />
        </AppShell.Main>
      </AppShell>
      <AppSpotlight />
      <Shortcuts />
    </>
  );
}
