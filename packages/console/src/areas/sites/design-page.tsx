import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { messageOf } from '../../api/errors';
import { confirmDelete } from '../../components/confirm-delete';
import { DataTable } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import { AnchorLink, ButtonLink } from '../../components/links';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { DESIGN_KINDS, KIND_NEW, KIND_TITLES, type DesignItem, type DesignKind } from './design-kinds';
import { DESIGN_KEY, deleteDesignItem, useDesignList } from './use-design';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/sites/$siteUid/');

/** A site's layouts, snippets and CSS/JS files, each a link to its editor. */
export function DesignPage() {
  const { siteUid } = route.useParams();
  return <Stack gap="xl">{DESIGN_KINDS.map((kind) => <DesignList key={kind} siteUid={siteUid} kind={kind} />)}</Stack>;
}

function DesignList({ siteUid, kind }: { siteUid: string; kind: DesignKind }) {
  const { t, formatDate } = useI18n();
  const { can } = useSession();
  const queryClient = useQueryClient();
  const list = useDesignList(siteUid, kind);
  const writable = can('site.write', siteUid);
  const remove = (item: DesignItem) => confirmDelete(t, item.name, async () => {
    try {
      await deleteDesignItem(siteUid, kind, item.id);
      notify(t('common.deleted'));
    } catch (error) {
      notify(messageOf(error, t), 'red');
    }
    await queryClient.invalidateQueries({ queryKey: [DESIGN_KEY, siteUid, kind] });
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t(KIND_TITLES[kind])}</Title>
        {writable && <ButtonLink to="/sites/$siteUid/design/$kind/$itemId" params={{ siteUid, kind, itemId: 'new' }} size="xs">{t(KIND_NEW[kind])}</ButtonLink>}
      </Group>
      {list.error ? <ErrorView error={list.error} /> : (
        <DataTable
          items={list.data ?? []} rowKey={(item) => item.id} busy={list.isLoading}
          columns={[
            { key: 'name', label: t('sites.name'), render: (item) => (
              <AnchorLink to="/sites/$siteUid/design/$kind/$itemId" params={{ siteUid, kind, itemId: String(item.id) }}>{item.name}</AnchorLink>
            ) },
            { key: 'updated_at', label: t('sites.updated'), render: (item) => formatDate(item.updated_at) },
            { key: 'actions', label: t('common.actions'), render: (item) => writable && (
              <Button size="xs" variant="default" onClick={() => remove(item)}>{t('common.delete')}</Button>
            ) },
          ]}
        />
      )}
      {list.data?.length === 0 && <Text size="sm">{t('sites.noneYet')}</Text>}
    </Stack>
  );
}
