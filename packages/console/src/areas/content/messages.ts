import { defineMessages } from '../../i18n/define';

export const content = defineMessages({
  en: { area: 'Content' },
  es: { area: 'Contenido' },
});
