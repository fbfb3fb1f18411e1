/** The languages of the console. */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * One area's messages in every language. The Spanish object must have exactly the English keys:
 * a missing or extra key fails the compiler.
 */
export function defineMessages<const English extends Record<string, string>>(
  messages: { en: English; es: { [Key in keyof English]: string } },
) {
  return messages;
}
