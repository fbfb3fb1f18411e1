import { defineMessages } from '../../i18n/define';

export const engagement = defineMessages({
  en: { area: 'Engagement' },
  es: { area: 'Interacción' },
});
