import { useMemo, useState } from 'react';
import { Alert, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { QueryBuilder, findPath, type RuleGroupType } from 'react-querybuilder';
import { api } from '../../api/client';
import { fieldErrorsOf, messageOf } from '../../api/errors';
import { FormError } from '../../components/form-error';
import { UnsavedChanges, useUnsavedState } from '../../components/unsaved-changes';
import { useI18n } from '../../i18n/i18n';
import { useSession } from '../../session/session';
import { builderControls } from './builder-controls';
import { segmentFields, typedValue } from './segment-fields';
import { pathOfField, toQuery, toTree, type RuleGroup, type SegmentTree } from './segment-query';
import { useLiveCount } from './use-live-count';

export interface SegmentValues { name: string; filters: SegmentTree }

/** The name and builder query without the query's generated ids, to compare with those loaded. */
const snapshotOf = (values: { name: string; query: RuleGroupType }) => JSON.stringify(values, (key, value: unknown) => (key === 'id' ? undefined : value));

/** A segment's name and filter tree, with the live count of the unsaved tree and its first matching users. */
export function SegmentEditor({ realmUid, initial, summary, onSubmit }: {
  realmUid: string;
  initial?: SegmentValues;
  summary?: string;
  onSubmit(values: SegmentValues): Promise<unknown>;
}) {
  const { t, formatNumber } = useI18n();
  const { can } = useSession();
  const [name, setName] = useState(initial?.name ?? '');
  const [query, setQuery] = useState<RuleGroupType>(() => toQuery(initial?.filters ?? { all: [] }) as RuleGroupType);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const unsaved = useUnsavedState(`segment:${realmUid}`, { name, query }, (kept) => { setName(kept.name); setQuery(kept.query); }, snapshotOf);
  const customFields = api.useQuery('get', '/customers/{realm_uid}/custom_fields', { params: { path: { realm_uid: realmUid }, query: { per_page: '100' } } });
  const eventTypes = api.useQuery('get', '/customers/{realm_uid}/event_types', { params: { path: { realm_uid: realmUid } } });
  const fields = useMemo(() => segmentFields({
    email: t('engagement.attrEmail'), username: t('engagement.attrUsername'), first_name: t('engagement.attrFirstName'),
    last_name: t('engagement.attrLastName'), active: t('engagement.attrActive'), created_at: t('engagement.attrCreatedAt'),
    last_login_at: t('engagement.attrLastLoginAt'), count: t('engagement.attrCount'), last_at: t('engagement.attrLastAt'),
  }, customFields.data?.custom_fields ?? [], eventTypes.data?.event_types.map((type) => type.type) ?? []), [t, customFields.data, eventTypes.data]);

  const tree = useMemo(() => {
    const typed = (group: RuleGroup): RuleGroup => ({ ...group, rules: group.rules.map((node) => ('rules' in node ? typed(node) : { ...node, value: typedValue(fields.find((field) => field.name === node.field), node.operator, node.value) })) });
    return toTree(typed(query as RuleGroup));
  }, [query, fields]);
  const live = useLiveCount(realmUid, tree, can('realm.users.read', realmUid));
  const badIds = useMemo(() => {
    const ids: Record<string, boolean> = {};
    for (const field of Object.keys({ ...fieldErrorsOf(live.error), ...fieldErrorsOf(error) })) {
      const path = pathOfField(field);
      const node = path && findPath(path, query);
      if (node?.id) ids[node.id] = false;
    }
    return ids;
  }, [live.error, error, query]);

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaving(true);
    try { await unsaved.save(() => onSubmit({ name, filters: tree })); } catch (caught) { setError(caught); } finally { setSaving(false); }
  };

  return (
    <form onSubmit={save}>
      <Stack>
        <UnsavedChanges {...unsaved.guard} />
        <FormError error={error} />
        <TextInput label={t('engagement.segmentName')} required value={name} onChange={(event) => setName(event.currentTarget.value)} error={fieldErrorsOf(error).name} maw={560} />
        <Paper withBorder p="sm">
          <QueryBuilder
            fields={fields}
            query={query}
            onQueryChange={setQuery}
            controlElements={builderControls}
            showShiftActions
            showNotToggle={false}
            combinators={[{ name: 'and', value: 'and', label: t('engagement.all') }, { name: 'or', value: 'or', label: t('engagement.any') }]}
            validator={() => badIds}
            translations={{
              fields: { title: t('engagement.attribute') }, operators: { title: t('engagement.operator') }, value: { title: t('engagement.value') },
              combinators: { title: t('engagement.combinator') },
              addRule: { label: t('engagement.addCondition'), title: t('engagement.addCondition') },
              addGroup: { label: t('engagement.addGroup'), title: t('engagement.addGroup') },
              removeRule: { label: '×', title: t('engagement.removeCondition') }, removeGroup: { label: '×', title: t('engagement.removeGroup') },
              shiftActionUp: { label: '↑', title: t('engagement.moveUp') }, shiftActionDown: { label: '↓', title: t('engagement.moveDown') },
            }}
          />
        </Paper>
        {summary && <Text size="sm"><Text span fw={700}>{t('engagement.summary')}: </Text>{summary}</Text>}
        <div aria-live="polite" aria-atomic="true" data-live-count>
          {live.count !== null && (
            <Text>
              {t('engagement.matches', { count: formatNumber(live.count) })}
              {live.stale && ` (${t('engagement.stale')})`}
            </Text>
          )}
        </div>
        {live.error ? <Alert color="red" role="alert">{messageOf(live.error, t)}</Alert> : null}
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
