import { useMemo, useState } from 'react';
import { Alert, Button, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { QueryBuilder, type RuleGroupType } from 'react-querybuilder';
import { fieldErrorsOf, messageOf } from '../../api/errors';
import { FormError } from '../../components/form-error';
import { UnsavedChanges, useUnsavedState } from '../../components/unsaved-changes';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { builderControls } from './builder-controls';
import classes from './segment-builder.module.css';
import { rulesOf, toQuery, toTree, type RuleGroup, type SegmentTree } from './segment-query';
import { SegmentSummaryText } from './segment-summary-text';
import { lacksValue, typedRule } from './segment-values';
import { useBuilderErrors } from './use-builder-errors';
import { useLiveCount } from './use-live-count';
import { useSegmentFields } from './use-segment-fields';

export interface SegmentValues { name: string; filters: SegmentTree }

/** The name and builder query without the query's generated ids, to compare with those loaded. */
const snapshotOf = (values: { name: string; query: RuleGroupType }) => JSON.stringify(values, (key, value: unknown) => (key === 'id' ? undefined : value));

/** The builder's class names: groups boxed and indented, one condition a row (segment-builder.module.css). */
const builderClasses = { ruleGroup: classes.group, header: classes.header, body: classes.body, rule: classes.rule };

/**
 * A segment's name and filter tree, with the live count of the unsaved tree and its first matching users, and a saved
 * segment's summary in the builder's words.
 */
export function SegmentEditor({ realmUid, initial, onSubmit }: {
  realmUid: string;
  initial?: SegmentValues;
  onSubmit(values: SegmentValues): Promise<unknown>;
}) {
  const { t, formatNumber } = useI18n();
  const { can } = useSession();
  const [name, setName] = useState(initial?.name ?? '');
  const [query, setQuery] = useState<RuleGroupType>(() => toQuery(initial?.filters ?? { all: [] }) as RuleGroupType);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const unsaved = useUnsavedState(`segment:${realmUid}`, { name, query }, (kept) => { setName(kept.name); setQuery(kept.query); }, snapshotOf);
  const fields = useSegmentFields(realmUid);

  const tree = useMemo(() => {
    const typed = (group: RuleGroup): RuleGroup => ({ ...group, rules: group.rules.map((node) => ('rules' in node ? typed(node) : typedRule(fields.find((field) => field.name === node.field), node))) });
    return toTree(typed(query as RuleGroup));
  }, [query, fields]);
  const incomplete = useMemo(() => rulesOf(query as RuleGroup).some((rule) => lacksValue(rule.operator, rule.value)), [query]);
  const live = useLiveCount(realmUid, incomplete ? null : tree, can('realm.users.read', realmUid));
  const refusedFields = useMemo(() => Object.keys({ ...fieldErrorsOf(live.error), ...fieldErrorsOf(error) }), [live.error, error]);
  const errors = useBuilderErrors(query, setQuery, refusedFields, t);
  // A save refused for its filters is told in words, its conditions marked, rather than with the server's paths.
  const refusedFilters = Object.keys(fieldErrorsOf(error)).some((field) => field.startsWith('filters'));
  // An edit after a refused save answers it: the live count judges the new tree.
  const changeQuery = (next: RuleGroupType) => { if (refusedFilters) setError(null); errors.change(next); };

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    errors.reveal();
    if (incomplete) return;
    setSaving(true);
    try { await unsaved.save(() => onSubmit({ name, filters: tree })); } catch (caught) { setError(caught); } finally { setSaving(false); }
  };

  return (
    <form onSubmit={save}>
      <Stack>
        <UnsavedChanges {...unsaved.guard} />
        <FormError error={refusedFilters ? null : error} />
        <TextInput label={t('engagement.segmentName')} required value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldErrorsOf(error).name} maw={560} />
        <QueryBuilder
          fields={fields}
          query={query}
          onQueryChange={changeQuery}
          controlElements={builderControls}
          controlClassnames={builderClasses}
          showShiftActions
          showNotToggle
          combinators={[{ name: 'and', value: 'and', label: t('engagement.all') }, { name: 'or', value: 'or', label: t('engagement.any') }]}
          validator={() => errors.validation}
          translations={{
            fields: { title: t('engagement.attribute') }, operators: { title: t('engagement.operator') }, value: { title: t('engagement.value') },
            combinators: { title: t('engagement.combinator') }, notToggle: { label: t('engagement.not'), title: t('engagement.not') },
            addRule: { label: t('engagement.addCondition'), title: t('engagement.addCondition') },
            addGroup: { label: t('engagement.addGroup'), title: t('engagement.addGroup') },
            removeRule: { label: '×', title: t('engagement.removeCondition') }, removeGroup: { label: '×', title: t('engagement.removeGroup') },
            shiftActionUp: { label: '↑', title: t('engagement.moveUp') }, shiftActionDown: { label: '↓', title: t('engagement.moveDown') },
          }}
        />
        {initial && <Text size="sm"><Text span fw={700}>{t('engagement.summary')}: </Text><SegmentSummaryText realmUid={realmUid} filters={initial.filters} /></Text>}
        <div aria-live="polite" aria-atomic="true" data-live-count>
          {live.count !== null && (
            <Text>
              {t('engagement.matches', { count: formatNumber(live.count) })}
              {live.stale && ` (${t('engagement.stale')})`}
            </Text>
          )}
        </div>
        {incomplete && <Text size="sm">{t('engagement.countWaits')}</Text>}
        {(errors.shown || refusedFilters) && <Alert color="red" role="alert">{t('engagement.conditionsToFix')}</Alert>}
        {live.error && refusedFields.length === 0 ? <Alert color="red" role="alert">{messageOf(live.error, t)}</Alert> : null}
        {live.users && live.users.length > 0 && (
          <div>
            <Title order={2} size="h4">{t('engagement.firstMatches')}</Title>
            <List>{live.users.map((user) => <List.Item key={user.id}>{user.email}</List.Item>)}</List>
          </div>
        )}
        <Group justify="flex-end"><Button type="submit" loading={saving}>{t('common.save')}</Button></Group>
      </Stack>
    </form>
  );
}
