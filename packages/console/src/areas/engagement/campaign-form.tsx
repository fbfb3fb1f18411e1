import { useMemo, useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { currentNaming, type AdminComponents } from '@atrium/client';
import { api } from '../../api/client';
import { FormError, labelsIn } from '../../components/form-error';
import { RealmSelect } from '../../components/realm-select';
import { ServerMultiSelect, type UseOptions } from '../../components/server-select';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import { CampaignPreview } from './campaign-preview';

type Campaign = AdminComponents['schemas']['Campaign'];
export interface CampaignValues {
  realm_uid: string; name: string; type: 'mailing' | 'notification'; subject: string; body: string; use_layout: boolean;
  /** false: the whole realm; true: the users of `segment_ids`. */
  segments_enabled: boolean; segment_ids: number[];
}
interface FormValues extends Omit<CampaignValues, 'segments_enabled' | 'segment_ids'> { audience: 'realm' | 'segments'; segment_ids: string[] }

/** The saved segments of one realm whose name matches what was typed (the server searches). */
const segmentOptionsOf = (realmUid: string): UseOptions => function useSegmentOptions(search) {
  const segments = api.useQuery('get', '/segments', { params: { query: { realm_uid: realmUid, per_page: '20', sort_by: 'name', order: 'asc', ...(search ? { query: search } : {}) } } }, { enabled: !!realmUid });
  return { options: (currentNaming(segments.data)?.segments ?? []).map((segment) => ({ value: String(segment.id), label: segment.name })), loading: segments.isLoading };
};

/**
 * Create (realm chosen) or edit a campaign's name, type, audience (the whole realm or segments of its realm) and
 * Liquid subject and body, with the server's preview of the draft.
 */
export function CampaignForm({ campaign, onSubmit, onCancel }: { campaign?: Campaign; onSubmit(values: CampaignValues): Promise<unknown>; onCancel?(): void }) {
  const { t } = useI18n();
  const form = useForm<FormValues>({
    initialValues: {
      realm_uid: campaign?.realm_uid ?? '', name: campaign?.name ?? '', type: campaign?.type ?? 'mailing', subject: campaign?.subject ?? '', body: campaign?.body ?? '', use_layout: campaign?.use_layout ?? false,
      audience: campaign?.segments_enabled ? 'segments' : 'realm', segment_ids: (campaign?.segments ?? []).map((segment) => String(segment.id)),
    },
  });
  const [known] = useState(() => (campaign?.segments ?? []).map((segment) => ({ value: String(segment.id), label: segment.name })));
  const useSegmentOptions = useMemo(() => segmentOptionsOf(form.values.realm_uid), [form.values.realm_uid]);
  const { submit, error, guard } = useFormSubmit(form, ({ audience, segment_ids, ...values }) => {
    const segments = audience === 'segments';
    // A notification has no layout; the whole realm keeps no segments.
    return onSubmit({ ...values, use_layout: values.type === 'mailing' && values.use_layout, segments_enabled: segments, segment_ids: segments ? segment_ids.map(Number) : [] });
  }, 'campaign');
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <FormError error={error} labels={labelsIn({ name: 'engagement.campaignName', type: 'engagement.type', subject: 'engagement.subject', body: 'engagement.body', use_layout: 'engagement.useLayout' }, t)} />
        {!campaign && <RealmSelect label={t('engagement.realm')} required value={form.values.realm_uid || null} onChange={(uid) => { form.setFieldValue('realm_uid', uid ?? ''); form.setFieldValue('segment_ids', []); }} />}
        <TextInput label={t('engagement.campaignName')} required {...form.getInputProps('name')} />
        <NativeSelect label={t('engagement.type')} data={[{ value: 'mailing', label: t('engagement.mailing') }, { value: 'notification', label: t('engagement.notification') }]} {...form.getInputProps('type')} />
        <Radio.Group label={t('engagement.audience')} {...form.getInputProps('audience')}>
          <Group mt="xs">
            <Radio value="realm" label={t('engagement.wholeRealm')} />
            <Radio value="segments" label={t('engagement.chosenSegments')} />
          </Group>
        </Radio.Group>
        {form.values.audience === 'segments' && (
          <ServerMultiSelect
            key={form.values.realm_uid}
            label={t('engagement.segments')}
            description={form.values.realm_uid ? t('engagement.segmentsHelp') : t('engagement.chooseRealm')}
            disabled={!form.values.realm_uid}
            withAsterisk
            known={known}
            useOptions={useSegmentOptions}
            value={form.values.segment_ids}
            onChange={(ids) => form.setFieldValue('segment_ids', ids)}
            error={form.errors.segment_ids}
          />
        )}
        <TextInput label={t('engagement.subject')} required {...form.getInputProps('subject')} />
        <Textarea label={t('engagement.body')} required autosize minRows={6} ff="monospace" {...form.getInputProps('body')} />
        {form.values.type === 'mailing' && (
          <Checkbox label={t('engagement.useLayout')} description={t('engagement.useLayoutHelp')} {...form.getInputProps('use_layout', { type: 'checkbox' })} />
        )}
        {form.values.realm_uid && <CampaignPreview draft={form.values} />}
        <Group justify="flex-end">
          {onCancel && <Button variant="default" onClick={onCancel}>{t('common.cancel')}</Button>}
          <Button type="submit" loading={form.submitting}>{t('common.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
