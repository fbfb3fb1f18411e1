import { useI18n } from '../../i18n/i18n';

/**
 * What every calendar of the editor takes: labels for its previous and next buttons (the level button keeps its visible
 * text as its name) and for a date-time picker's confirm button; no days of other months and no red weekend days,
 * whose colours fall short of WCAG AA contrast.
 */
export function useCalendarProps() {
  const { t } = useI18n();
  return {
    ariaLabels: {
      nextMonth: t('content.nextMonth'), previousMonth: t('content.previousMonth'), nextYear: t('content.nextYear'),
      previousYear: t('content.previousYear'), nextDecade: t('content.nextDecade'), previousDecade: t('content.previousDecade'),
    },
    hideOutsideDates: true,
    weekendDays: [],
  };
}
