import { useState } from 'react';
import { Anchor, Button, Checkbox, Fieldset, Grid, Group, NumberInput, Select, Stack, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { admin, api } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { FormError } from '../../components/form-error';
import { ButtonLink } from '../../components/links';
import { UnsavedChanges, useUnsavedState } from '../../components/unsaved-changes';
import { RealmSelect } from '../../components/realm-select';
import { useI18n } from '../../i18n/i18n';
import { CHOICE_TYPES, FIELD_TYPES, FORM_LOCALES, TEXT_TYPES, bodyOf, draftOf, type Draft, type DraftField, type FieldType } from './form-draft';
import { FormPreview } from './form-preview';
import { useMayManageForm } from './permissions';
import { notify } from '../../components/notify';

const route = getRouteApi('/app/forms/$formUid');

/** The form builder: general settings, the fields (ordered, one selected at a time), steps, what follows an answer. */
export function FormBuilderPage() {
  const { formUid } = route.useParams();
  const creating = formUid === 'new';
  const form = api.useQuery('get', '/forms/{form_uid}', { params: { path: { form_uid: formUid } } }, { enabled: !creating });
  if (!creating && !form.data) return form.error ? <ErrorView error={form.error} /> : <Text>…</Text>;
  return <Builder key={form.data?.updated_at ?? 'new'} draft={draftOf(form.data)} creating={creating} url={form.data?.url} />;
}

function Builder({ draft: initial, creating, url }: { draft: Draft; creating: boolean; url?: string }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mayManage = useMayManageForm()(creating ? undefined : initial.realm_uid);
  const [draft, setDraft] = useState(initial);
  const [selected, setSelected] = useState<number | null>(initial.fields.length ? 0 : null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const unsaved = useUnsavedState(creating ? 'form:new' : 'form', draft, setDraft);
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const setField = (index: number, patch: Partial<DraftField>) =>
    setDraft((current) => ({ ...current, fields: current.fields.map((field, i) => (i === index ? { ...field, ...patch } : field)) }));
  const locales = [draft.default_locale, ...draft.locales.filter((l) => l !== draft.default_locale)];

  const addField = () => {
    const name = `field_${draft.fields.length + 1}`;
    set({ fields: [...draft.fields, { name, type: 'text', required: false, labels: {}, choices: '', step: Math.max(0, draft.steps.length - 1) }] });
    setSelected(draft.fields.length);
  };
  const move = (index: number, by: -1 | 1) => {
    const fields = [...draft.fields];
    [fields[index], fields[index + by]] = [fields[index + by]!, fields[index]!];
    set({ fields });
    setSelected(index + by);
  };
  const remove = (index: number) => {
    set({ fields: draft.fields.filter((_, i) => i !== index) });
    setSelected(null);
  };

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaving(true);
    try {
      await unsaved.save(async () => {
        const body = bodyOf(draft, creating);
        if (creating) await admin.POST('/forms', { body });
        else await admin.PUT('/forms/{form_uid}', { params: { path: { form_uid: draft.uid } }, body });
        notify(t('common.saved'));
        await queryClient.invalidateQueries({ queryKey: ['get', '/forms'] });
        await queryClient.invalidateQueries({ queryKey: ['get', '/forms/{form_uid}'] });
        if (creating) await navigate({ to: '/forms/$formUid', params: { formUid: draft.uid } });
      });
    } catch (caught) {
      setError(caught);
    } finally {
      setSaving(false);
    }
  };

  const field = selected === null ? undefined : draft.fields[selected];
  const typeLabel = (type: FieldType) => t(FIELD_TYPES.find((entry) => entry.value === type)!.label);
  const emailFields = draft.fields.filter((f) => f.type === 'email');

  return (
    <form onSubmit={(event) => void save(event)}>
      <Stack>
        <UnsavedChanges {...unsaved.guard} />
        <Group justify="space-between">
          <Title order={1}>{creating ? t('forms.newForm') : t('forms.editForm', { name: initial.name })}</Title>
          {!creating && (
            <Group>
              <ButtonLink variant="default" to="/forms/$formUid/responses" params={{ formUid: draft.uid }}>{t('forms.responses')}</ButtonLink>
              {url && <Anchor href={url} target="_blank" rel="noreferrer">{t('forms.openPage')}</Anchor>}
            </Group>
          )}
        </Group>
        <FormError error={error} labels={{
          uid: t('forms.uid'), name: t('forms.name'), realm_uid: t('forms.realm'), redirect_url: t('forms.redirectUrl'), opens_at: t('forms.opensAt'),
          closes_at: t('forms.closesAt'), max_responses: t('forms.maxResponses'), notify_emails: t('forms.notifyEmails'),
          'fields': t('forms.fieldNumber'), 'fields.*.name': t('forms.fieldName'), 'fields.*.type': t('forms.fieldType'), 'fields.*.options': t('forms.choices'),
          'fields.*.pattern': t('forms.pattern'),
          ...Object.fromEntries(locales.map((locale) => [`fields.*.labels.${locale}`, t('forms.labelIn', { locale })])),
        }} />
        <fieldset disabled={!mayManage} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack>
            <Fieldset legend={t('forms.general')}>
              <Grid>
                <Grid.Col span={{ base: 12, sm: 6 }}><TextInput label={t('forms.uid')} required disabled={!creating} value={draft.uid} onChange={(e) => set({ uid: e.currentTarget.value })} /></Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}><TextInput label={t('forms.name')} required value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} /></Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  {creating
                    ? <RealmSelect label={t('forms.realm')} value={draft.realm_uid} onChange={(realm_uid) => set({ realm_uid })} />
                    : <TextInput label={t('forms.realm')} disabled value={draft.realm_uid ?? t('forms.noRealm')} />}
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Select label={t('forms.access')} allowDeselect={false} value={draft.access} onChange={(access) => set({ access: access === 'realm_users' ? 'realm_users' : 'public' })}
                    data={[{ value: 'public', label: t('forms.accessPublic') }, { value: 'realm_users', label: t('forms.accessRealmUsers') }]} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Select label={t('forms.defaultLocale')} allowDeselect={false} data={FORM_LOCALES} value={draft.default_locale}
                    onChange={(locale) => set({ default_locale: locale ?? 'en', locales: [...new Set([locale ?? 'en', ...draft.locales])] })} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Checkbox.Group label={t('forms.locales')} value={locales} onChange={(values) => set({ locales: [...new Set([draft.default_locale, ...values])] })}>
                    <Group mt="xs">{FORM_LOCALES.map((locale) => <Checkbox key={locale} value={locale} label={locale} disabled={locale === draft.default_locale} />)}</Group>
                  </Checkbox.Group>
                </Grid.Col>
                <Grid.Col span={12}><Checkbox label={t('forms.active')} checked={draft.active} onChange={(e) => set({ active: e.currentTarget.checked })} /></Grid.Col>
              </Grid>
            </Fieldset>

            <Grid>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <Fieldset legend={t('forms.fields')}>
                  <Stack gap="xs">
                    {draft.fields.length === 0 && <Text>{t('forms.noFields')}</Text>}
                    <ol style={{ margin: 0, paddingLeft: '1.5rem' }}>
                      {draft.fields.map((f, i) => (
                        <li key={i}>
                          <Group gap={4} wrap="nowrap" justify="space-between">
                            <Button variant={i === selected ? 'filled' : 'subtle'} size="compact-sm" aria-pressed={i === selected}
                              aria-label={t('forms.selectField', { name: f.name })} onClick={() => setSelected(i)}>
                              {t('forms.fieldSummary', { name: f.name, type: typeLabel(f.type) })}{f.required ? ' *' : ''}
                            </Button>
                            <Group gap={2} wrap="nowrap">
                              <Button variant="default" size="compact-xs" disabled={i === 0} aria-label={t('forms.moveUp', { name: f.name })} onClick={() => move(i, -1)}>↑</Button>
                              <Button variant="default" size="compact-xs" disabled={i === draft.fields.length - 1} aria-label={t('forms.moveDown', { name: f.name })} onClick={() => move(i, 1)}>↓</Button>
                              <Button variant="default" size="compact-xs" aria-label={t('forms.removeField', { name: f.name })} onClick={() => remove(i)}>✕</Button>
                            </Group>
                          </Group>
                        </li>
                      ))}
                    </ol>
                    <Group><Button variant="default" onClick={addField}>{t('forms.addField')}</Button></Group>
                  </Stack>
                </Fieldset>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }}>
                {field && selected !== null && (
                  <FieldSettings key={selected} field={field} earlier={draft.fields.slice(0, selected)} locales={locales} steps={draft.steps.length}
                    onChange={(patch) => setField(selected, patch)} typeLabel={typeLabel} />
                )}
              </Grid.Col>
            </Grid>

            <Fieldset legend={t('forms.steps')}>
              <Stack gap="xs">
                <Text size="sm">{t('forms.stepsHint')}</Text>
                {draft.steps.map((step, i) => (
                  <Group key={i} align="flex-end">
                    {locales.map((locale) => (
                      <TextInput key={locale} label={t('forms.stepTitleIn', { number: i + 1, locale })} value={step.labels[locale] ?? ''}
                        onChange={(e) => { const value = e.currentTarget.value; set({ steps: draft.steps.map((s, j) => (j === i ? { labels: { ...s.labels, [locale]: value } } : s)) }); }} />
                    ))}
                    <Button variant="default" onClick={() => set({ steps: draft.steps.filter((_, j) => j !== i), fields: draft.fields.map((f) => ({ ...f, step: f.step > i ? f.step - 1 : f.step === i ? 0 : f.step })) })}>
                      {t('forms.removeStep', { number: i + 1 })}
                    </Button>
                  </Group>
                ))}
                <Group><Button variant="default" onClick={() => set({ steps: [...draft.steps, { labels: {} }] })}>{t('forms.addStep')}</Button></Group>
              </Stack>
            </Fieldset>

            <Fieldset legend={t('forms.afterAnswer')}>
              <Grid>
                {locales.map((locale) => (
                  <Grid.Col key={locale} span={{ base: 12, sm: 6 }}>
                    <Textarea label={t('forms.successIn', { locale })} autosize minRows={2} value={draft.success_message[locale] ?? ''}
                      onChange={(e) => set({ success_message: { ...draft.success_message, [locale]: e.currentTarget.value } })} />
                  </Grid.Col>
                ))}
                <Grid.Col span={12}><TextInput label={t('forms.redirectUrl')} placeholder="/thanks" value={draft.redirect_url} onChange={(e) => set({ redirect_url: e.currentTarget.value })} /></Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}><TextInput type="datetime-local" label={t('forms.opensAt')} value={draft.opens_at} onChange={(e) => set({ opens_at: e.currentTarget.value })} /></Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}><TextInput type="datetime-local" label={t('forms.closesAt')} value={draft.closes_at} onChange={(e) => set({ closes_at: e.currentTarget.value })} /></Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <NumberInput label={t('forms.maxResponses')} min={1} allowDecimal={false} value={draft.max_responses ?? ''}
                    onChange={(value) => set({ max_responses: typeof value === 'number' ? value : undefined })} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Select label={t('forms.confirmation')} allowDeselect={false} value={draft.confirmation} onChange={(confirmation) => set({ confirmation: confirmation ?? 'none' })}
                    data={[
                      { value: 'none', label: t('forms.confirmationNone') },
                      ...(draft.access === 'realm_users' ? [{ value: 'user', label: t('forms.confirmationUser') }] : []),
                      ...emailFields.map((f) => ({ value: `field:${f.name}`, label: t('forms.confirmationField', { name: f.name }) })),
                    ]} />
                </Grid.Col>
                <Grid.Col span={12}><TagsInput label={t('forms.notifyEmails')} maxTags={10} value={draft.notify_emails} onChange={(notify_emails) => set({ notify_emails })} /></Grid.Col>
              </Grid>
            </Fieldset>

            <Fieldset legend={t('forms.spam')}>
              <Group grow align="flex-start">
                <NumberInput label={t('forms.minFillSeconds')} min={0} allowDecimal={false} value={draft.min_fill_seconds}
                  onChange={(value) => set({ min_fill_seconds: typeof value === 'number' ? value : 0 })} />
                <NumberInput label={t('forms.rateLimit')} min={0} allowDecimal={false} value={draft.rate_limit_per_hour}
                  onChange={(value) => set({ rate_limit_per_hour: typeof value === 'number' ? value : 0 })} />
              </Group>
            </Fieldset>
          </Stack>
        </fieldset>
        <FormPreview draft={draft} />
        {mayManage && <Group justify="flex-end"><Button type="submit" loading={saving}>{t('common.save')}</Button></Group>}
      </Stack>
    </form>
  );
}

/** The selected field's settings: type, name, labels and help per locale, rules of its type, step and condition. */
function FieldSettings({ field, earlier, locales, steps, onChange, typeLabel }: {
  field: DraftField; earlier: DraftField[]; locales: string[]; steps: number;
  onChange(patch: Partial<DraftField>): void; typeLabel(type: FieldType): string;
}) {
  const { t } = useI18n();
  const number = (value: string | number) => (typeof value === 'number' ? value : undefined);
  return (
    <Fieldset legend={t('forms.fieldSettings', { name: field.name })}>
      <Stack gap="sm">
        <Select label={t('forms.fieldType')} allowDeselect={false} value={field.type} data={FIELD_TYPES.map((type) => ({ value: type.value, label: typeLabel(type.value) }))}
          onChange={(type) => onChange({ type: (type ?? 'text') as FieldType, ...(type === 'consent' ? { required: true } : {}) })} />
        <TextInput label={t('forms.fieldName')} description={t('forms.fieldNameHint')} required value={field.name} onChange={(e) => onChange({ name: e.currentTarget.value })} />
        {locales.map((locale) => (
          <TextInput key={`label-${locale}`} label={t('forms.labelIn', { locale })} required={locale === locales[0]} value={field.labels[locale] ?? ''}
            onChange={(e) => onChange({ labels: { ...field.labels, [locale]: e.currentTarget.value } })} />
        ))}
        {locales.map((locale) => (
          <TextInput key={`help-${locale}`} label={t('forms.helpIn', { locale })} value={field.help?.[locale] ?? ''}
            onChange={(e) => onChange({ help: { ...field.help, [locale]: e.currentTarget.value } })} />
        ))}
        <Checkbox label={t('forms.required')} checked={field.type === 'consent' || !!field.required} disabled={field.type === 'consent'}
          onChange={(e) => onChange({ required: e.currentTarget.checked })} />
        {(field.type === 'number' || field.type === 'multiple_choice') && (
          <Group grow>
            <NumberInput label={t('forms.min')} value={field.min ?? ''} onChange={(value) => onChange({ min: number(value) })} />
            <NumberInput label={t('forms.max')} value={field.max ?? ''} onChange={(value) => onChange({ max: number(value) })} />
          </Group>
        )}
        {TEXT_TYPES.includes(field.type) && (
          <>
            <Group grow>
              <NumberInput label={t('forms.minLength')} min={0} allowDecimal={false} value={field.min_length ?? ''} onChange={(value) => onChange({ min_length: number(value) })} />
              <NumberInput label={t('forms.maxLength')} min={1} allowDecimal={false} value={field.max_length ?? ''} onChange={(value) => onChange({ max_length: number(value) })} />
            </Group>
            <TextInput label={t('forms.pattern')} value={field.pattern ?? ''} onChange={(e) => onChange({ pattern: e.currentTarget.value || undefined })} />
          </>
        )}
        {CHOICE_TYPES.includes(field.type) && (
          <Textarea label={t('forms.choices')} description={t('forms.choicesHint')} autosize minRows={3} value={field.choices}
            placeholder={`yes = Yes${locales.length > 1 ? ' | Sí' : ''}`} onChange={(e) => onChange({ choices: e.currentTarget.value })} />
        )}
        {steps > 0 && (
          <Select label={t('forms.step')} allowDeselect={false} value={String(Math.min(field.step, steps - 1))}
            data={Array.from({ length: steps }, (_, i) => String(i + 1)).map((label, i) => ({ value: String(i), label }))}
            onChange={(value) => onChange({ step: Number(value ?? 0) })} />
        )}
        <Select label={t('forms.showIf')} allowDeselect={false} value={field.show_if?.field ?? ''}
          data={[{ value: '', label: t('forms.showIfNone') }, ...earlier.map((f) => ({ value: f.name, label: f.name }))]}
          onChange={(name) => onChange({ show_if: name ? { field: name, value: field.show_if?.value } : undefined })} />
        {field.show_if && (
          <TextInput label={t('forms.showIfValue')} value={field.show_if.value ?? ''}
            onChange={(e) => onChange({ show_if: { field: field.show_if!.field, value: e.currentTarget.value || undefined } })} />
        )}
      </Stack>
    </Fieldset>
  );
}
