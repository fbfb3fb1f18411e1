import { TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import type { FieldLabels } from '../../api/field-labels';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';

/** The head of a space's or a type's form: the failure of the last save (`labels`: the form's other fields), then the uid and the name. */
export function UidNameInputs({ error, inputProps, labels }: { error: unknown; inputProps(path: 'uid' | 'name'): GetInputPropsReturnType; labels?: FieldLabels }) {
  const { t } = useI18n();
  return (
    <>
      <FormError error={error} labels={{ uid: t('content.uid'), name: t('content.name'), ...labels }} />
      <TextInput label={t('content.uid')} required {...inputProps('uid')} />
      <TextInput label={t('content.name')} required {...inputProps('name')} />
    </>
  );
}
