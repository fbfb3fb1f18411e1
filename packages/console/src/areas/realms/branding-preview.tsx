import { Box, Text, useComputedColorScheme } from '@mantine/core';
import { useI18n } from '../../i18n/i18n';
import { CANVAS, DEFAULT_PRIMARY, HEX_COLOR, readableOn, textOn } from './brand-contrast';

interface Branding { logo_url: string | null; primary_color: string | null; page_title: string | null }

/**
 * A small mock of the realm's sign-in page as the branding being edited makes it, in the console's colour scheme:
 * the tab's title, the logo (when it is stored on this server: the console loads no other server's images),
 * the heading, a link and the button, coloured by the realm pages' rule.
 */
export function BrandingPreview({ realmName, branding }: { realmName: string; branding: Branding }) {
  const { t } = useI18n();
  const scheme = useComputedColorScheme('light');
  const canvas = CANVAS[scheme];
  const color = branding.primary_color && HEX_COLOR.test(branding.primary_color) ? branding.primary_color.toLowerCase() : DEFAULT_PRIMARY;
  const linkReadable = readableOn(color, canvas);
  const logo = branding.logo_url?.trim() || null;
  return (
    <Box component="figure" m={0}>
      <Text component="figcaption" size="sm" fw={600} mb={4}>{t('realms.preview')}</Text>
      <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, overflow: 'hidden', colorScheme: scheme }}>
        <Text size="xs" px="sm" py={4} bg="var(--mantine-color-default-hover)" truncate>
          {`${t('realms.previewSignIn')} · ${branding.page_title?.trim() || realmName}`}
        </Text>
        <Box p="md" style={{ background: canvas, color: scheme === 'light' ? '#000000' : '#ffffff' }}>
          {logo?.startsWith('/') && <img src={logo} alt={realmName} style={{ display: 'block', maxHeight: 48, maxWidth: '100%' }} />}
          <Text fw={700} fz="lg" my="xs" style={{ overflowWrap: 'anywhere' }}>{t('realms.previewHeading', { realm: realmName })}</Text>
          <Text size="sm" mb="sm" td="underline" style={{ color: linkReadable ? color : 'LinkText', textDecorationColor: color }}>{t('realms.previewLink')}</Text>
          <Box px="md" py={8} style={{ display: 'inline-block', borderRadius: 6, fontWeight: 600, background: color, color: textOn(color) }}>
            {t('realms.previewSignIn')}
          </Box>
        </Box>
      </Box>
      {!linkReadable && <Text size="sm" mt={4}>{t('realms.linkUnreadable')}</Text>}
      {logo && !logo.startsWith('/') && <Text size="sm" mt={4}>{t('realms.logoElsewhere')}</Text>}
    </Box>
  );
}
