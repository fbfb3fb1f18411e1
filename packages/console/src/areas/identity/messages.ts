import { defineMessages } from '../../i18n/define';

export const identity = defineMessages({
  en: { area: 'Administration' },
  es: { area: 'Administración' },
});
