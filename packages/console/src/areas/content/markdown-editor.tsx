import '@mantine/tiptap/styles.css';
import { useId, useState } from 'react';
import { Input, SegmentedControl, Stack, Textarea } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import { useI18n } from '../../i18n/i18n';
import classes from './markdown-editor.module.css';
import { markdownExtensions } from './markdown-extensions';
import { MarkdownLinkControl } from './markdown-link-control';

interface MarkdownEditorProps { label: string; value: string; onChange(value: string): void; withAsterisk?: boolean; error?: string; editable: boolean }

/** A Markdown field in Tiptap, with a toggle to its Markdown source; what is saved is always Markdown. */
export function MarkdownEditor({ label, value, onChange, withAsterisk, error, editable }: MarkdownEditorProps) {
  const { t } = useI18n();
  const id = useId();
  const [source, setSource] = useState(false);
  const editor = useEditor({
    extensions: markdownExtensions(),
    content: value,
    contentType: 'markdown',
    editable,
    editorProps: { attributes: { 'aria-label': label, role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: current }) => onChange(current.getMarkdown()),
  });
  const toggle = (next: string) => {
    const showSource = next === 'source';
    if (!showSource) editor?.commands.setContent(value, { contentType: 'markdown', emitUpdate: false });
    setSource(showSource);
  };
  const labels = {
    boldControlLabel: t('content.bold'), italicControlLabel: t('content.italic'), strikeControlLabel: t('content.strike'),
    codeControlLabel: t('content.code'), h2ControlLabel: t('content.heading', { level: 2 }), h3ControlLabel: t('content.heading', { level: 3 }),
    bulletListControlLabel: t('content.bulletList'), orderedListControlLabel: t('content.orderedList'), blockquoteControlLabel: t('content.blockquote'),
    codeBlockControlLabel: t('content.codeBlock'), undoControlLabel: t('content.undo'), redoControlLabel: t('content.redo'),
    unlinkControlLabel: t('content.unlink'),
  };
  return (
    <Input.Wrapper label={label} labelProps={{ id: `${id}-label` }} withAsterisk={withAsterisk} error={error}>
      <Stack gap="xs">
        <SegmentedControl size="xs" w="fit-content" value={source ? 'source' : 'rich'} onChange={toggle} aria-label={t('content.editor', { name: label })}
          data={[{ value: 'rich', label: t('content.richView') }, { value: 'source', label: t('content.sourceView') }]} />
        {source ? (
          <Textarea readOnly={!editable} aria-label={`${label}: ${t('content.sourceView')}`} data-markdown-source autosize minRows={6} value={value}
            onChange={(event) => onChange(event.currentTarget.value)} styles={{ input: { fontFamily: 'monospace' } }} />
        ) : (
          <RichTextEditor editor={editor} labels={labels} classNames={{ content: classes.content }}>
            {editable && <RichTextEditor.Toolbar>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Bold /><RichTextEditor.Italic /><RichTextEditor.Strikethrough /><RichTextEditor.Code />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.H2 /><RichTextEditor.H3 /><RichTextEditor.BulletList /><RichTextEditor.OrderedList />
                <RichTextEditor.Blockquote /><RichTextEditor.CodeBlock />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <MarkdownLinkControl editor={editor} /><RichTextEditor.Unlink />
              </RichTextEditor.ControlsGroup>
              <RichTextEditor.ControlsGroup>
                <RichTextEditor.Undo /><RichTextEditor.Redo />
              </RichTextEditor.ControlsGroup>
            </RichTextEditor.Toolbar>}
            <RichTextEditor.Content />
          </RichTextEditor>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
