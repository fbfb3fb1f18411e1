import { useState } from 'react';
import { Badge, Button, Group, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { AdminComponents } from '@atrium/client';
import { admin, api } from '../../api/client';
import { messageOf } from '../../api/errors';
import { DataTable } from '../../components/data-table';
import { ErrorView } from '../../components/error-view';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { PreviewButton } from './preview-frame';
import { SCHEDULED, ScheduledPublishes } from './scheduled-publishes';
import { useSite } from './site-layout';
import { titleOf, usePages } from './use-pages';
import { VersionsPanel } from './versions-panel';
import { notify } from '../../components/notify';

type Review = AdminComponents['schemas']['SiteReviewRequest'];
const route = getRouteApi('/app/sites/$siteUid/publishing');
const REVIEWS = '/sites/{site_uid}/review_requests';
const STATUS: Record<Review['status'], MessageKey> = {
  open: 'sites.reviewOpen', approved: 'sites.reviewApproved', rejected: 'sites.reviewRejected', published: 'sites.reviewPublished', withdrawn: 'sites.reviewWithdrawn',
};

/** Review requests (ask, approve, reject), publishing the drafts, and the versions with their diff and rollback. */
export function PublishingPage() {
  const { t, formatDate } = useI18n();
  const { can, state } = useSession();
  const memberId = state.status === 'signed-in' ? state.member.id : null;
  const { siteUid } = route.useParams();
  const queryClient = useQueryClient();
  const site = useSite(siteUid);
  const reviews = api.useQuery('get', REVIEWS, { params: { path: { site_uid: siteUid }, query: { per_page: '50' } } });
  const [askNote, setAskNote] = useState('');
  const [publishNote, setPublishNote] = useState('');
  const [reviewId, setReviewId] = useState<string | null>(null);
  // A local date and time (datetime-local): the publish is scheduled then.
  const [publishAt, setPublishAt] = useState('');
  const [busy, setBusy] = useState(false);
  const pages = usePages(siteUid);
  const [previewed, setPreviewed] = useState<string | null>(null);
  const mayPublish = can('site.publish', siteUid);
  const path = { site_uid: siteUid };

  const run = async (action: () => Promise<unknown>, done: MessageKey) => {
    setBusy(true);
    try {
      await action();
      notify(t(done));
    } catch (error) {
      notify(messageOf(error, t), 'red');
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ['get', REVIEWS] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/sites/{site_uid}'] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/sites/{site_uid}/versions'] });
      await queryClient.invalidateQueries({ queryKey: ['get', SCHEDULED] });
    }
  };
  if (site.error) return <ErrorView error={site.error} />;
  const previewPage = pages.data?.find((page) => String(page.id) === previewed);
  const approved = (reviews.data?.review_requests ?? []).filter((review) => review.status === 'approved' && review.current);

  return (
    <Stack gap="xl">
      <Stack>
        <Title order={2}>{t('sites.reviewRequests')}</Title>
        {can('site.write', siteUid) && (
          <Group align="flex-end">
            <Textarea label={t('sites.reviewNote')} value={askNote} onChange={(event) => setAskNote(event.currentTarget.value)} w={420} maw="100%" autosize />
            <Button variant="default" loading={busy} onClick={() => void run(async () => {
              await admin.POST(REVIEWS, { params: { path }, body: { note: askNote } });
              setAskNote('');
            }, 'sites.reviewAsked')}>{t('sites.askReview')}</Button>
          </Group>
        )}
        {reviews.error ? <ErrorView error={reviews.error} /> : (
          <DataTable
            items={reviews.data?.review_requests ?? []} rowKey={(review) => review.id} busy={reviews.isLoading} striped={false}
            columns={[
              { key: 'id', label: '#', width: 70, render: (review) => review.id },
              { key: 'status', label: t('sites.status'), width: 220, render: (review) => (
                <Group gap={4}>
                  <Badge color={review.status === 'approved' ? 'teal.9' : review.status === 'rejected' ? 'red.9' : 'gray.7'}>{t(STATUS[review.status])}</Badge>
                  {!review.current && review.status !== 'published' && <Badge color="grape.9">{t('sites.reviewStale')}</Badge>}
                </Group>
              ) },
              { key: 'note', label: t('sites.note'), text: (review) => review.note, render: (review) => review.note },
              { key: 'requested_by', label: t('sites.requestedBy'), text: (review) => `${review.requested_by.name} · ${formatDate(review.created_at)}`, render: (review) => `${review.requested_by.name} · ${formatDate(review.created_at)}` },
              { key: 'actions', label: t('common.actions'), render: (review) => review.status === 'open' && (
                <Group gap="xs" wrap="nowrap">
                  {review.requested_by.id === memberId && (
                    <Button size="xs" variant="default" disabled={busy} aria-label={t('sites.withdrawNumber', { id: review.id })}
                      onClick={() => void run(() => admin.POST(`${REVIEWS}/{id}/withdraw`, { params: { path: { ...path, id: review.id } } }), 'sites.reviewWithdrawn')}>
                      {t('sites.withdraw')}
                    </Button>
                  )}
                  {mayPublish && (<>
                  <Button size="xs" color="teal" disabled={busy} aria-label={t('sites.approveNumber', { id: review.id })}
                    onClick={() => void run(() => admin.POST(`${REVIEWS}/{id}/approve`, { params: { path: { ...path, id: review.id } }, body: {} }), 'sites.reviewApproved')}>
                    {t('sites.approve')}
                  </Button>
                  <Button size="xs" color="red" variant="outline" disabled={busy} aria-label={t('sites.rejectNumber', { id: review.id })}
                    onClick={() => void run(() => admin.POST(`${REVIEWS}/{id}/reject`, { params: { path: { ...path, id: review.id } }, body: {} }), 'sites.reviewRejected')}>
                    {t('sites.reject')}
                  </Button>
                  </>)}
                </Group>
              ) },
            ]}
          />
        )}
        {reviews.data?.review_requests.length === 0 && <Text size="sm">{t('sites.noneYet')}</Text>}
      </Stack>

      {mayPublish && site.data && (
        <Stack>
          <Title order={2}>{t('sites.publish')}</Title>
          <Text size="sm">{site.data.published_version === null ? t('sites.notPublished') : t('sites.servingVersion', { number: site.data.published_version })}</Text>
          <Group align="flex-end">
            <Textarea label={t('sites.publishNote')} value={publishNote} onChange={(event) => setPublishNote(event.currentTarget.value)} w={420} maw="100%" autosize />
            {site.data.require_review && (
              <Select label={t('sites.approvedRequest')} required value={reviewId} onChange={setReviewId} w={260}
                data={approved.map((review) => ({ value: String(review.id), label: `#${review.id} ${review.note}`.trim() }))} />
            )}
            <TextInput type="datetime-local" label={t('sites.publishAtOptional')} value={publishAt} onChange={(event) => setPublishAt(event.currentTarget.value)} w={240} />
            <Button loading={busy} disabled={site.data.require_review && !reviewId} onClick={() => void run(async () => {
              const at = publishAt ? { at: new Date(publishAt).toISOString() } : {};
              await admin.POST('/sites/{site_uid}/publish', { params: { path }, body: { note: publishNote, ...at, ...(reviewId ? { review_request_id: Number(reviewId) } : {}) } });
              setPublishNote('');
              setReviewId(null);
              setPublishAt('');
            }, publishAt ? 'sites.scheduledDone' : 'sites.published')}>{t(publishAt ? 'sites.schedule' : 'sites.publish')}</Button>
          </Group>
          <ScheduledPublishes siteUid={siteUid} mayCancel={mayPublish} />
        </Stack>
      )}

      {site.data && (
        <Stack>
          <Title order={2}>{t('sites.previewDrafts')}</Title>
          <Group align="flex-end">
            <Select label={t('sites.previewPage')} value={previewed} onChange={setPreviewed} w={300} maw="100%" searchable
              data={(pages.data ?? []).map((page) => ({ value: String(page.id), label: titleOf(page, site.data.default_locale) }))} />
            {previewPage && <PreviewButton site={site.data} pageId={previewPage.id} title={titleOf(previewPage, site.data.default_locale)} />}
          </Group>
        </Stack>
      )}

      <VersionsPanel siteUid={siteUid} mayRollBack={mayPublish} />
    </Stack>
  );
}
