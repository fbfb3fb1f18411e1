import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { AtriumError, type ErrorsBody } from '@atrium/client';
import { messageOf } from '../../api/errors';
import { ErrorView, NotFound } from '../../components/error-view';
import { AnchorLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { CodeEditor, problemOf, type CodeProblem } from './code-editor';
import { isDesignKind, KIND_NEW, KIND_TITLES, languageOf, lockTypeOf, type DesignItem, type DesignKind } from './design-kinds';
import { LeaveGuard } from '../../components/leave-guard';
import { LockBanner, READABLE_TITLE } from './lock-banner';
import { DESIGN_KEY, saveDesignItem, useDesignList } from './use-design';
import { useEditLock } from './use-edit-lock';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/sites/$siteUid/design/$kind/$itemId');

/** A layout, snippet or file in the code editor; `new` for a new one. */
export function TemplatePage() {
  const { t } = useI18n();
  const { siteUid, kind, itemId } = route.useParams();
  const list = useDesignList(siteUid, isDesignKind(kind) ? kind : 'layouts');
  if (!isDesignKind(kind)) return <NotFound />;
  if (list.error) return <ErrorView error={list.error} />;
  if (!list.data) return <Text role="status">{t('common.loading')}</Text>;
  const item = itemId === 'new' ? null : list.data.find((candidate) => String(candidate.id) === itemId);
  if (item === undefined) return <NotFound />;
  return <TemplateEditor key={itemId} siteUid={siteUid} kind={kind} item={item} />;
}

function TemplateEditor({ siteUid, kind, item }: { siteUid: string; kind: DesignKind; item: DesignItem | null }) {
  const { t } = useI18n();
  const { can } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(item?.name ?? (kind === 'files' ? 'main.css' : ''));
  const [text, setText] = useState(item?.text ?? '');
  const [problem, setProblem] = useState<CodeProblem | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const lock = useEditLock(lockTypeOf(kind), item ? String(item.id) : null, can('site.write', siteUid));
  const writable = lock.writable;
  // What was last saved: leaving with other text asks first.
  const [saved, setSaved] = useState({ name: item?.name ?? '', text: item?.text ?? '' });

  const save = async () => {
    setSaving(true);
    setProblem(null);
    setFailure(null);
    try {
      const answer = await saveDesignItem(siteUid, kind, item?.id ?? null, name, text);
      setSaved({ name, text });
      notify(t('common.saved'));
      await queryClient.invalidateQueries({ queryKey: [DESIGN_KEY, siteUid, kind] });
      if (!item) await navigate({ to: '/sites/$siteUid/design/$kind/$itemId', params: { siteUid, kind, itemId: String(answer.id) }, replace: true });
    } catch (error) {
      if (lock.lostBy(error)) return;
      const detail = error instanceof AtriumError ? ((error.body as Partial<ErrorsBody>).errors ?? []).join(' ') : '';
      setProblem(error instanceof AtriumError && error.status === 422 ? problemOf(detail) : null);
      setFailure(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack>
      <AnchorLink to="/sites/$siteUid" params={{ siteUid }} size="sm">{t('sites.backToDesign')}</AnchorLink>
      <LeaveGuard dirty={() => name !== saved.name || text !== saved.text} />
      <Title order={2}>{item ? `${t(KIND_TITLES[kind])}: ${item.name}` : t(KIND_NEW[kind])}</Title>
      <LockBanner state={lock.state} canTakeOver={can('site.publish', siteUid)} onTakeOver={() => void lock.takeOver()} onReadOnly={lock.openReadOnly} text={() => text} />
      {failure !== null && (
        <Alert color="red" role="alert" styles={READABLE_TITLE} title={problem ? t('sites.templateErrorAt', { line: problem.line }) : undefined}>
          {messageOf(failure, t)}
        </Alert>
      )}
      <TextInput label={t('sites.name')} required value={name} onChange={(event) => setName(event.currentTarget.value)} readOnly={!writable}
        description={kind === 'files' ? t('sites.fileNameHint') : undefined} />
      <CodeEditor label={t(kind === 'files' ? 'sites.fileBody' : 'sites.source')} language={languageOf(kind, name)} value={text} onChange={setText}
        readOnly={!writable} problem={problem} />
      {writable && (
        <Group justify="flex-end">
          <Button loading={saving} onClick={() => void save()}>{t('common.save')}</Button>
        </Group>
      )}
    </Stack>
  );
}
