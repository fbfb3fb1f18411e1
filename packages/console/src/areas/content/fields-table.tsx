import { Table } from '@mantine/core';
import type { AdminComponents } from '@atrium/client';
import { useI18n } from '../../i18n/i18n';
import { fieldTypeWord } from './field-editor';
import { fieldLabel } from './field-labels';

type Field = AdminComponents['schemas']['ContentField'];

/** A content type's fields, read only (for a member who may not change the type). */
export function FieldsTable({ fields, defaultLocale }: { fields: Field[]; defaultLocale: string }) {
  const { t, locale } = useI18n();
  const yes = (value: boolean) => (value ? t('common.yes') : t('common.no'));
  return (
    <Table.ScrollContainer minWidth={500}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            {(['fieldLabelColumn', 'fieldIdentifier', 'fieldType', 'required', 'localized', 'sortable', 'filterable', 'fieldOptions'] as const).map((key) => (
              <Table.Th key={key} scope="col">{t(`content.${key}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field) => (
            <Table.Tr key={field.name}>
              <Table.Td>{fieldLabel(field, locale, defaultLocale)}</Table.Td>
              <Table.Td>{field.name}</Table.Td>
              <Table.Td>{t(fieldTypeWord(field.type))}</Table.Td>
              <Table.Td>{yes(field.required)}</Table.Td>
              <Table.Td>{yes(field.localized)}</Table.Td>
              <Table.Td>{yes(field.sortable)}</Table.Td>
              <Table.Td>{yes(field.filterable)}</Table.Td>
              <Table.Td>{field.options.join(', ')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
