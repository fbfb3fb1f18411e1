/** The largest id the admin API takes in a path (a 32-bit integer; past it the API answers 422). */
const ID_MAX = 2 ** 31 - 1;

/** Whether a path segment of the console's URL can name a record: otherwise the link is stale or hand-edited (not found). */
export const isRecordId = (text: string): boolean => /^[1-9][0-9]{0,9}$/.test(text) && Number(text) <= ID_MAX;
