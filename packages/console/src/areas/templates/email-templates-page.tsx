import { useState } from 'react';
import { Badge, Box, Button, Grid, Group, SegmentedControl, Select, Stack, Switch, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { FormError } from '../../components/form-error';
import { UnsavedChanges, useUnsavedState } from '../../components/unsaved-changes';
import { useI18n } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/catalogue';
import { useSession } from '../../session/session';
import { useHeldEverywhere } from '../sites/site-form';
import { notify } from '../../components/notify';

type Template = AdminComponents['schemas']['EmailTemplate'];
type Kind = Template['kind'];
type Content = { subject: string; html: string; text: string };
type Draft = { format: Template['format']; locales: Record<string, Content> };
const LOCALES = ['en', 'es'];

/**
 * The calls of one level: the account's defaults, or a realm's overrides. The typed client names each path, so the
 * level picks its own.
 */
function templateCalls(realmUid: string | undefined) {
  const r = realmUid;
  return {
    key: ['email-template', r ?? null] as const,
    get: async (kind: Kind) => (r
      ? (await admin.GET('/customers/{realm_uid}/email_templates/{kind}', { params: { path: { realm_uid: r, kind } } })).data!
      : (await admin.GET('/email_templates/{kind}', { params: { path: { kind } } })).data!),
    versions: async (kind: Kind) => (r
      ? (await admin.GET('/customers/{realm_uid}/email_templates/{kind}/versions', { params: { path: { realm_uid: r, kind }, query: { per_page: '20' } } })).data!
      : (await admin.GET('/email_templates/{kind}/versions', { params: { path: { kind }, query: { per_page: '20' } } })).data!),
    save: (kind: Kind, body: Draft) => (r
      ? admin.PUT('/customers/{realm_uid}/email_templates/{kind}', { params: { path: { realm_uid: r, kind } }, body })
      : admin.PUT('/email_templates/{kind}', { params: { path: { kind } }, body })),
    reset: (kind: Kind) => (r
      ? admin.DELETE('/customers/{realm_uid}/email_templates/{kind}', { params: { path: { realm_uid: r, kind } } })
      : admin.DELETE('/email_templates/{kind}', { params: { path: { kind } } })),
    preview: async (kind: Kind, locale: string, draft: Content & { format: Draft['format'] }) => (r
      ? (await admin.POST('/customers/{realm_uid}/email_templates/{kind}/preview', { params: { path: { realm_uid: r, kind } }, body: { locale, draft } })).data!
      : (await admin.POST('/email_templates/{kind}/preview', { params: { path: { kind } }, body: { locale, draft } })).data!),
    testSend: async (kind: Kind, locale: string, draft: Content & { format: Draft['format'] }) => (r
      ? (await admin.POST('/customers/{realm_uid}/email_templates/{kind}/test_send', { params: { path: { realm_uid: r, kind } }, body: { locale, draft } })).data!
      : (await admin.POST('/email_templates/{kind}/test_send', { params: { path: { kind } }, body: { locale, draft } })).data!),
  };
}

const realmRoute = getRouteApi('/app/realms/$realmUid/email-templates');

/** The realm's overrides: the same screen, on the realm's routes. */
export function RealmEmailTemplatesPage() {
  const { realmUid } = realmRoute.useParams();
  return <EmailTemplatesPage realmUid={realmUid} />;
}

/** The kinds of mail, and an editor per kind and language with its preview, test send, versions and reset. */
export function EmailTemplatesPage({ realmUid }: { realmUid?: string }) {
  const { t } = useI18n();
  const kinds = api.useQuery('get', '/email_templates');
  const [kind, setKind] = useState<Kind>('password_reset');
  if (kinds.error) return <ErrorView error={kinds.error} />;
  const list = kinds.data?.kinds ?? [];
  return (
    <Stack>
      <Title order={realmUid ? 2 : 1}>{t('templates.emailTemplates')}</Title>
      <Select label={t('templates.kind')} allowDeselect={false} w={360} value={kind} onChange={(value) => value && setKind(value as Kind)}
        data={list.map((entry) => ({ value: entry.kind, label: t(`templates.${entry.kind}` as MessageKey) }))} />
      {list.length > 0 && (
        <Editor key={`${realmUid ?? ''}/${kind}`} realmUid={realmUid} kind={kind} variables={list.find((entry) => entry.kind === kind)?.variables.map((v) => v.name) ?? []} />
      )}
    </Stack>
  );
}

function Editor({ realmUid, kind, variables }: { realmUid?: string; kind: Kind; variables: string[] }) {
  const calls = templateCalls(realmUid);
  const template = useQuery({ queryKey: [...calls.key, kind], queryFn: () => calls.get(kind) });
  if (template.error) return <ErrorView error={template.error} />;
  if (!template.data) return null;
  return <TemplateForm key={template.data.updated_at ?? 'shipped'} realmUid={realmUid} template={template.data} variables={variables} />;
}

function TemplateForm({ realmUid, template, variables }: { realmUid?: string; template: Template; variables: string[] }) {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const queryClient = useQueryClient();
  const calls = templateCalls(realmUid);
  const kind = template.kind;
  // The account's defaults need an account role; a realm's overrides a role there too.
  const heldEverywhere = useHeldEverywhere('templates.manage');
  const mayManage = realmUid ? can('templates.manage', realmUid) : heldEverywhere;
  const [draft, setDraft] = useState<Draft>({
    format: template.format,
    locales: Object.fromEntries(LOCALES.map((locale) => [locale, template.locales[locale] ?? { subject: '', html: '', text: '' }])),
  });
  const [locale, setLocale] = useState('en');
  const [mobile, setMobile] = useState(false);
  const [preview, setPreview] = useState<Content | null>(null);
  const [error, setError] = useState<unknown>(null);
  const unsaved = useUnsavedState(`email-template:${kind}`, draft, setDraft);
  const versions = useQuery({ queryKey: [...calls.key, kind, 'versions', template.updated_at], queryFn: () => calls.versions(kind) });
  const content = draft.locales[locale]!;
  const setContent = (patch: Partial<Content>) => setDraft({ ...draft, locales: { ...draft.locales, [locale]: { ...content, ...patch } } });
  const kindName = t(`templates.${kind}` as MessageKey);
  const refresh = () => queryClient.invalidateQueries({ queryKey: calls.key });
  const run = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    }
  };
  const sourceLabel: Record<Template['source'], MessageKey> = { shipped: 'templates.sourceShipped', account: 'templates.sourceAccount', realm: 'templates.sourceRealm' };

  return (
    <Stack>
      <UnsavedChanges {...unsaved.guard} />
      <Group>
        <Text>{t('templates.source')}:</Text>
        <Badge color="gray.7">{t(sourceLabel[template.source])}</Badge>
        {template.updated_at && <Text size="sm">{formatDate(template.updated_at)}</Text>}
      </Group>
      <Text size="sm">{t('templates.variables', { names: variables.join(', ') })}</Text>
      <FormError error={error} />
      <Grid>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack>
            <Group align="flex-end">
              <Box>
                <Text size="sm" fw={500} id="template-locale">{t('templates.locale')}</Text>
                <SegmentedControl aria-labelledby="template-locale" value={locale} onChange={setLocale} data={LOCALES} />
              </Box>
              <Select label={t('templates.format')} allowDeselect={false} w={140} value={draft.format} disabled={!mayManage}
                data={[{ value: 'html', label: 'HTML' }, { value: 'mjml', label: 'MJML' }]} onChange={(format) => setDraft({ ...draft, format: format === 'mjml' ? 'mjml' : 'html' })} />
            </Group>
            <TextInput label={t('templates.subject', { locale })} readOnly={!mayManage} value={content.subject} onChange={(e) => setContent({ subject: e.currentTarget.value })} />
            <Textarea label={t(draft.format === 'mjml' ? 'templates.mjml' : 'templates.html', { locale })} readOnly={!mayManage} autosize minRows={8} maxRows={20}
              styles={{ input: { fontFamily: 'monospace' } }} value={content.html} onChange={(e) => setContent({ html: e.currentTarget.value })} />
            <Textarea label={t('templates.text', { locale })} readOnly={!mayManage} autosize minRows={4} maxRows={14}
              styles={{ input: { fontFamily: 'monospace' } }} value={content.text} onChange={(e) => setContent({ text: e.currentTarget.value })} />
            <Group>
              <Button variant="default" onClick={() => void run(async () => setPreview(await calls.preview(kind, locale, { format: draft.format, ...content })))}>{t('templates.preview')}</Button>
              {mayManage && (
                <>
                  <Button onClick={() => void run(async () => {
                    await unsaved.save(() => calls.save(kind, draft));
                    notify(t('common.saved'));
                    await refresh();
                  })}>{t('common.save')}</Button>
                  <Button variant="default" onClick={() => void run(async () => {
                    const sent = await calls.testSend(kind, locale, { format: draft.format, ...content });
                    notify(t('templates.testSent', { to: sent.to }));
                  })}>{t('templates.testSend')}</Button>
                  {template.source === (realmUid ? 'realm' : 'account') && (
                    <Button color="red" variant="outline" onClick={() => modals.openConfirmModal({
                      title: t('templates.resetDefault'), children: t('templates.resetConfirm', { name: kindName }),
                      labels: { confirm: t('templates.resetDefault'), cancel: t('common.cancel') }, confirmProps: { color: 'red' },
                      onConfirm: () => void run(async () => {
                        await calls.reset(kind);
                        notify(t('common.saved'));
                        await refresh();
                      }),
                    })}>{t('templates.resetDefault')}</Button>
                  )}
                </>
              )}
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack>
            <Switch label={t('templates.mobileWidth')} checked={mobile} onChange={(e) => setMobile(e.currentTarget.checked)} />
            {preview && (
              <>
                <Text fw={500}>{t('templates.previewSubject', { subject: preview.subject })}</Text>
                {/* No script, no same-origin: the mail's HTML cannot reach the console. */}
                <iframe sandbox="" srcDoc={preview.html || `<pre>${preview.text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)}</pre>`}
                  title={t('templates.previewFrame', { kind: kindName, locale })}
                  style={{ width: mobile ? 375 : '100%', maxWidth: '100%', height: '60vh', border: '1px solid #ced4da', background: '#fff' }} />
              </>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      <Title order={realmUid ? 3 : 2}>{t('templates.versions')}</Title>
      {versions.data && versions.data.versions.length === 0 ? <Text>{t('templates.noVersions')}</Text> : (
        <Table>
          <Table.Thead><Table.Tr><Table.Th scope="col">{t('templates.at')}</Table.Th><Table.Th scope="col">{t('templates.action')}</Table.Th><Table.Th scope="col">{t('templates.by')}</Table.Th></Table.Tr></Table.Thead>
          <Table.Tbody>
            {(versions.data?.versions ?? []).map((version) => (
              <Table.Tr key={version.id}>
                <Table.Td>{formatDate(version.created_at)}</Table.Td>
                <Table.Td>{t(version.action === 'saved' ? 'templates.actionSaved' : 'templates.actionReset')}</Table.Td>
                <Table.Td>{version.admin_name ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
