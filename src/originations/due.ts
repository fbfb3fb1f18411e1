/** Spec 2.9: a submission's deadline and the texts that show it; pure, computed from the given `now`. */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Within this much of its deadline a pending submission is due soon. */
export const DUE_SOON_MS = 2 * DAY_MS;

export const addDays = (moment: Date, days: number) => new Date(moment.getTime() + days * DAY_MS);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/**
 * `Nov 28, 2026`, in UTC: what Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
 * writes. Not made with Intl: its first formatter maps 6 MB of the runtime's locale data into the process.
 */
const dateText = (moment: Date) => `${MONTHS[moment.getUTCMonth()]} ${moment.getUTCDate()}, ${moment.getUTCFullYear()}`;

export interface DueInput {
  status: string;
  /** The deadline fixed at the start (null before it, or without one). */
  deadlineAt: Date | null;
  extensionDays: number;
  /** Whether the origination has a deadline (what a submission not yet started will get). */
  hasDeadline: boolean;
}

export interface Due {
  due: string;
  due_deadline_at: string | null;
  due_label: string | null;
  due_status_label: string | null;
  due_extension_days: number | null;
}

export const NOT_STARTED_LABEL = 'Not started';
export const NO_DATE_LABEL = '-';

/**
 * The deadline shows only while the submission is pending and has one; otherwise `due_label` stands in
 * for it (`Not started`, or `-`). A pending deadline is overdue once reached, due soon within 2 days of
 * it, on track before.
 */
export function dueOf(input: DueInput, now: Date): Due {
  const configured = input.status === 'not_started' ? input.hasDeadline : input.deadlineAt !== null;
  const extension = configured ? input.extensionDays : null;
  if (input.status !== 'pending' || input.deadlineAt === null) {
    const label = input.status === 'not_started' ? NOT_STARTED_LABEL : NO_DATE_LABEL;
    return { due: label, due_deadline_at: null, due_label: label, due_status_label: null, due_extension_days: extension };
  }
  const deadline = addDays(input.deadlineAt, input.extensionDays);
  const left = deadline.getTime() - now.getTime();
  const status = left <= 0 ? '(overdue)' : left <= DUE_SOON_MS ? '(due soon)' : '(on track)';
  return {
    due: `${dateText(deadline)} ${status}`,
    due_deadline_at: deadline.toISOString(),
    due_label: null,
    due_status_label: status,
    due_extension_days: extension,
  };
}
