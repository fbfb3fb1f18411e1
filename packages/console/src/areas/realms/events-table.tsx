import { Badge, Code, Table, Text } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { useI18n } from '../../i18n/i18n';
import { eventTypeWord } from './event-words';

type BusinessEvent = AdminComponents['schemas']['BusinessEvent'];

/** Business events, newest first: a built-in type in words above its key; properties shown as JSON text (never as HTML). */
export function EventsTable({ events, withUser = true }: { events: BusinessEvent[]; withUser?: boolean }) {
  const { t, formatDate } = useI18n();
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('realms.when')}</Table.Th>
            <Table.Th scope="col">{t('realms.eventType')}</Table.Th>
            {withUser && <Table.Th scope="col">{t('realms.user')}</Table.Th>}
            <Table.Th scope="col">{t('realms.properties')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td>{formatDate(event.created_at)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <span>{eventTypeWord(event.type, t) ?? event.type}</span>{event.impersonated && <> <Badge color="red.9">{t('realms.impersonated')}</Badge></>}
                {eventTypeWord(event.type, t) !== null && <Text size="xs" c="dimmed">{event.type}</Text>}
              </Table.Td>
              {withUser && <Table.Td style={{ overflowWrap: 'anywhere' }}>{event.user?.email ?? ''}</Table.Td>}
              <Table.Td><Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{JSON.stringify(event.properties)}</Code></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
