import { defineMessages } from '../../i18n/define';

export const originations = defineMessages({
  en: { area: 'Applications' },
  es: { area: 'Solicitudes' },
});
