import { Kbd, Modal, Table } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { useI18n } from '../i18n/i18n';

/** `/` focuses the list's search box, `?` shows this help; Ctrl/Cmd+K is the spotlight's own. */
export function Shortcuts() {
  const { t } = useI18n();
  const [opened, { open, close }] = useDisclosure(false);
  useHotkeys([
    ['/', () => document.querySelector<HTMLInputElement>('[data-list-search]')?.focus()],
    ['shift+?', open],
  ]);
  const rows: [string, string][] = [
    ['Ctrl/⌘ + K', t('common.shortcutSpotlight')],
    ['/', t('common.shortcutSearch')],
    ['?', t('common.shortcutHelp')],
  ];
  return (
    <Modal opened={opened} onClose={close} title={t('common.shortcuts')}>
      <Table>
        <Table.Tbody>
          {rows.map(([keys, action]) => (
            <Table.Tr key={keys}><Table.Td><Kbd>{keys}</Kbd></Table.Td><Table.Td>{action}</Table.Td></Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
