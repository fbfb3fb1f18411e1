import { useState } from 'react';
import { Button, Group, Popover, TextInput } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import type { Editor } from '@tiptap/react';
import { useI18n } from '../../i18n/i18n';

/**
 * The toolbar's link control: a labelled address field in a popover. Mantine's own link control has an
 * external-link toggle with no accessible name, which axe refuses; Markdown links have no target anyway.
 */
export function MarkdownLinkControl({ editor }: { editor: Editor | null }) {
  const { t } = useI18n();
  const [opened, setOpened] = useState(false);
  const [address, setAddress] = useState('');
  const open = () => {
    setAddress(String(editor?.getAttributes('link').href ?? ''));
    setOpened(true);
  };
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    const chain = editor?.chain().focus().extendMarkRange('link');
    if (address.trim()) chain?.setLink({ href: address.trim() }).run();
    else chain?.unsetLink().run();
    setOpened(false);
  };
  return (
    <Popover opened={opened} onChange={setOpened} trapFocus returnFocus position="bottom-start" shadow="md">
      <Popover.Target>
        <RichTextEditor.Control aria-label={t('content.link')} title={t('content.link')} active={editor?.isActive('link') ?? false} onClick={open}>
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M9 15l6 -6" /><path d="M11 6l.463 -.536a5 5 0 0 1 7.071 7.072l-.534 .464" /><path d="M13 18l-.397 .534a5.068 5.068 0 0 1 -7.127 0a4.972 4.972 0 0 1 0 -7.071l.524 -.463" />
          </svg>
        </RichTextEditor.Control>
      </Popover.Target>
      <Popover.Dropdown>
        <form onSubmit={save}>
          <Group align="flex-end" wrap="nowrap">
            <TextInput label={t('content.linkAddress')} placeholder={t('content.linkPlaceholder')} type="url" value={address} onChange={(event) => setAddress(event.currentTarget.value)} w={260} />
            <Button type="submit" size="sm">{t('content.linkSave')}</Button>
          </Group>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
