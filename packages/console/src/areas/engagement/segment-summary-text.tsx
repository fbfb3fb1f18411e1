import { useI18n } from '../../i18n/i18n';
import { segmentSummary } from './segment-summary';
import type { SegmentTree } from './segment-query';
import { useSegmentFields } from './use-segment-fields';

/** A saved segment's filters in words, in the console's language (the list and the segment page). */
export function SegmentSummaryText({ realmUid, filters }: { realmUid: string; filters: SegmentTree }) {
  const { t } = useI18n();
  const fields = useSegmentFields(realmUid);
  return <span data-summary>{segmentSummary(filters, fields, t)}</span>;
}
