import { useState } from 'react';
import { Button, Fieldset, Group, NumberInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { api } from '../../api/client';
import type { MessageKey } from '../../i18n/catalogue';
import { useI18n } from '../../i18n/i18n';
import { BLOCK_TYPES, blockValues, moved, type BlockType, type BlockValues } from './blocks';
import type { Site } from './site-form';

export const BLOCK_LABELS: Record<BlockType, MessageKey> = {
  rich_text: 'sites.blockRichText', content_list: 'sites.blockContentList', content_entry: 'sites.blockContentEntry',
  menu: 'sites.blockMenu', liquid: 'sites.blockLiquid', form: 'sites.blockForm',
};

interface BlockEditorProps { site: Site; blocks: BlockValues[]; onChange(blocks: BlockValues[]): void; readOnly: boolean }

/** A page's blocks: add one of a type, and for each its zone, its fields, move up or down, remove. */
export function BlockEditor({ site, blocks, onChange, readOnly }: BlockEditorProps) {
  const { t } = useI18n();
  const [adding, setAdding] = useState<BlockType>('rich_text');
  const menus = api.useQuery('get', '/sites/{site_uid}/menus', { params: { path: { site_uid: site.uid } } });
  const forms = api.useQuery('get', '/forms', { params: { query: { per_page: '100' } } }, { enabled: blocks.some((block) => block.type === 'form') });
  const change = (index: number, patch: Partial<BlockValues>) => onChange(blocks.map((block, i) => (i === index ? { ...block, ...patch } : block)));
  return (
    <Stack>
      {blocks.length === 0 && <Text size="sm">{t('sites.noBlocks')}</Text>}
      {blocks.map((block, index) => {
        const name = t('sites.blockNumber', { number: index + 1, type: t(BLOCK_LABELS[block.type]) });
        const field = (key: 'space_uid' | 'type_uid' | 'entry_uuid' | 'sort' | 'snippet', label: MessageKey) => (
          <TextInput label={t(label)} value={block[key]} readOnly={readOnly} onChange={(event) => change(index, { [key]: event.currentTarget.value })} />
        );
        const space = (
          <Select label={t('sites.space')} data={site.space_uids} value={block.space_uid || null} readOnly={readOnly}
            onChange={(value) => change(index, { space_uid: value ?? '' })} />
        );
        return (
          <Fieldset key={block.key} legend={name} data-block={block.type}>
            <Stack gap="xs">
              <TextInput label={t('sites.zone')} value={block.zone} readOnly={readOnly} onChange={(event) => change(index, { zone: event.currentTarget.value })} />
              {block.type === 'rich_text' && site.locales.map((locale) => (
                <Textarea key={locale} label={t('sites.markdownIn', { locale })} autosize minRows={3} value={block.markdown[locale] ?? ''} readOnly={readOnly}
                  onChange={(event) => change(index, { markdown: { ...block.markdown, [locale]: event.currentTarget.value } })} />
              ))}
              {(block.type === 'content_list' || block.type === 'content_entry') && <>{space}{field('type_uid', 'sites.contentType')}</>}
              {block.type === 'content_list' && (
                <>
                  <NumberInput label={t('sites.limit')} min={1} max={100} value={block.limit} readOnly={readOnly} onChange={(value) => change(index, { limit: value })} />
                  {field('sort', 'sites.sort')}
                  <Textarea label={t('sites.filters')} description={t('sites.filtersHint')} autosize minRows={2} ff="monospace" value={block.filters} readOnly={readOnly}
                    onChange={(event) => change(index, { filters: event.currentTarget.value })} />
                </>
              )}
              {block.type === 'content_entry' && field('entry_uuid', 'sites.entryUuid')}
              {block.type === 'menu' && (
                <Select label={t('sites.menu')} data={(menus.data?.menus ?? []).map((menu) => ({ value: menu.uid, label: menu.name }))}
                  value={block.menu_uid || null} readOnly={readOnly} onChange={(value) => change(index, { menu_uid: value ?? '' })} />
              )}
              {block.type === 'form' && (
                <Select label={t('sites.form')} data={(forms.data?.forms ?? []).filter((form) => form.access === 'public').map((form) => ({ value: form.uid, label: form.name }))}
                  value={block.form_uid || null} readOnly={readOnly} onChange={(value) => change(index, { form_uid: value ?? '' })} />
              )}
              {block.type !== 'rich_text' && block.type !== 'liquid' && field('snippet', 'sites.snippet')}
              {block.type === 'liquid' && (
                <Textarea label={t('sites.source')} autosize minRows={4} ff="monospace" value={block.source} readOnly={readOnly}
                  onChange={(event) => change(index, { source: event.currentTarget.value })} />
              )}
              {!readOnly && (
                <Group gap="xs">
                  <Button size="xs" variant="default" disabled={index === 0} aria-label={t('sites.moveBlockUp', { name })} onClick={() => onChange(moved(blocks, index, -1))}>{t('sites.up')}</Button>
                  <Button size="xs" variant="default" disabled={index === blocks.length - 1} aria-label={t('sites.moveBlockDown', { name })} onClick={() => onChange(moved(blocks, index, 1))}>{t('sites.down')}</Button>
                  <Button size="xs" variant="default" aria-label={t('sites.removeBlock', { name })} onClick={() => onChange(blocks.filter((_, i) => i !== index))}>{t('sites.remove')}</Button>
                </Group>
              )}
            </Stack>
          </Fieldset>
        );
      })}
      {!readOnly && (
        <Group align="flex-end">
          <Select label={t('sites.blockType')} data={BLOCK_TYPES.map((type) => ({ value: type, label: t(BLOCK_LABELS[type]) }))} value={adding}
            allowDeselect={false} onChange={(value) => setAdding((value ?? 'rich_text') as BlockType)} />
          <Button variant="default" onClick={() => onChange([...blocks, blockValues({ type: adding })])}>{t('sites.addBlock')}</Button>
        </Group>
      )}
    </Stack>
  );
}
