import { TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { FormError } from '../../components/form-error';
import { useI18n } from '../../i18n/i18n';

/** The head of a space's or a type's form: the failure of the last save, then the uid and the name. */
export function UidNameInputs({ error, inputProps }: { error: unknown; inputProps(path: 'uid' | 'name'): GetInputPropsReturnType }) {
  const { t } = useI18n();
  return (
    <>
      <FormError error={error} />
      <TextInput label={t('content.uid')} required {...inputProps('uid')} />
      <TextInput label={t('content.name')} required {...inputProps('name')} />
    </>
  );
}
