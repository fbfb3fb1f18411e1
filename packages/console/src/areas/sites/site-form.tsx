import { Checkbox, Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { AdminComponents, AtriumPermission } from '@atrium/client';
import { api } from '../../api/client';
import { FormActions, type EditFormProps } from '../../components/form-actions';
import { RealmSelect } from '../../components/realm-select';
import { UnsavedChanges } from '../../components/unsaved-changes';
import { useFormSubmit } from '../../components/use-form-submit';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { UidNameInputs } from '../content/uid-name-inputs';

export type Site = AdminComponents['schemas']['Site'];
export interface SiteValues {
  uid: string; name: string; default_locale: string; locales: string[]; realm_uid: string | null;
  space_uids: string[]; custom_domain: string; require_review: boolean;
}

/** The body of a site as the API takes it: the default locale first among the locales, no custom domain as null. */
export const siteBody = (values: SiteValues) => ({
  ...values,
  locales: [values.default_locale, ...values.locales.filter((locale) => locale !== values.default_locale)],
  custom_domain: values.custom_domain.trim() || null,
});

/** Whether the member holds a permission from an account role (everywhere), not only on some sites. */
export function useHeldEverywhere(permission: AtriumPermission): boolean {
  const { state } = useSession();
  return state.status === 'signed-in' && state.permissions.everywhere.includes(permission);
}

/**
 * Create or edit a site: uid, name, locales, the realm whose users sign in, the spaces it reads, its domain and review
 * rule. The spaces and the domain need an account role, the review rule site.publish: others see them disabled.
 */
export function SiteForm({ item, onSubmit, onCancel }: EditFormProps<Site, SiteValues>) {
  const { t } = useI18n();
  const { can } = useSession();
  const accountWide = useHeldEverywhere('site.write');
  const spaces = api.useQuery('get', '/content/spaces', { params: { query: { per_page: '100', sort_by: 'uid', order: 'asc' } } });
  const form = useForm<SiteValues>({
    initialValues: {
      uid: item?.uid ?? '', name: item?.name ?? '', default_locale: item?.default_locale ?? 'en',
      locales: item?.locales.filter((locale) => locale !== item.default_locale) ?? [], realm_uid: item?.realm_uid ?? null,
      space_uids: item?.space_uids ?? [], custom_domain: item?.custom_domain ?? '', require_review: item?.require_review ?? false,
    },
  });
  const { submit, error, guard } = useFormSubmit(form, onSubmit, `site:${item?.uid ?? 'new'}`);
  return (
    <form onSubmit={submit}>
      <Stack>
        <UnsavedChanges {...guard} />
        <UidNameInputs error={error} inputProps={form.getInputProps} />
        <TextInput label={t('sites.defaultLocale')} required {...form.getInputProps('default_locale')} />
        <TagsInput label={t('sites.otherLocales')} {...form.getInputProps('locales')} />
        <RealmSelect label={t('sites.realm')} value={form.values.realm_uid} onChange={(uid) => form.setFieldValue('realm_uid', uid)} />
        <TagsInput label={t('sites.spaces')} data={(spaces.data?.spaces ?? []).map((space) => space.uid ?? '').filter(Boolean)} disabled={!accountWide} {...form.getInputProps('space_uids')} />
        <TextInput label={t('sites.customDomain')} placeholder="www.example.com" disabled={!accountWide} {...form.getInputProps('custom_domain')} />
        <Checkbox label={t('sites.requireReview')} disabled={!can('site.publish', item?.uid)} {...form.getInputProps('require_review', { type: 'checkbox' })} />
        <FormActions submitting={form.submitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
