import type { Locale } from '../i18n/locale.js';

/** The words of the forms' pages and answers, per language (the realm pages' catalog stays the realms'). */
const en = {
  blank: "can't be blank",
  notText: 'must be text',
  tooShort: (n: number) => `is too short (minimum is ${n} characters)`,
  tooLong: (n: number) => `is too long (maximum is ${n} characters)`,
  noMatch: 'is not in the expected format',
  notEmail: 'is not a valid email address',
  notNumber: 'must be a number',
  tooSmall: (n: number) => `must be greater than or equal to ${n}`,
  tooLarge: (n: number) => `must be less than or equal to ${n}`,
  notDate: 'must be a date (YYYY-MM-DD)',
  notOption: 'is not one of the choices',
  fewChoices: (n: number) => `needs at least ${n} choices`,
  manyChoices: (n: number) => `allows at most ${n} choices`,
  notBoolean: 'must be true or false',
  mustAccept: 'must be accepted',
  fileOnPage: 'can only be sent on the form\'s page (multipart)',
  unknownField: 'is not a field of this form',
  submit: 'Send',
  thanks: 'Thank you: your response was received.',
  fixErrors: 'Please correct the fields marked below.',
  closed: 'This form is closed.',
  full: 'This form has received all the responses it takes.',
  notYet: (at: string) => `This form opens on ${at}.`,
  ended: 'This form no longer takes responses.',
  tooMany: 'Too many responses from your address: please wait a while and try again.',
  honeypot: 'Leave this field empty',
  optional: '(optional)',
  received: 'Response received',
  yes: 'Yes',
  no: 'No',
};

export type FormTexts = typeof en;

const es: FormTexts = {
  blank: 'no puede estar en blanco',
  notText: 'debe ser texto',
  tooShort: (n) => `es demasiado corto (mínimo ${n} caracteres)`,
  tooLong: (n) => `es demasiado largo (máximo ${n} caracteres)`,
  noMatch: 'no tiene el formato esperado',
  notEmail: 'no es una dirección de correo válida',
  notNumber: 'debe ser un número',
  tooSmall: (n) => `debe ser mayor o igual que ${n}`,
  tooLarge: (n) => `debe ser menor o igual que ${n}`,
  notDate: 'debe ser una fecha (AAAA-MM-DD)',
  notOption: 'no es una de las opciones',
  fewChoices: (n) => `necesita al menos ${n} opciones`,
  manyChoices: (n) => `admite como máximo ${n} opciones`,
  notBoolean: 'debe ser verdadero o falso',
  mustAccept: 'debe ser aceptado',
  fileOnPage: 'solo puede enviarse en la página del formulario (multipart)',
  unknownField: 'no es un campo de este formulario',
  submit: 'Enviar',
  thanks: 'Gracias: hemos recibido tu respuesta.',
  fixErrors: 'Corrige los campos señalados abajo.',
  closed: 'Este formulario está cerrado.',
  full: 'Este formulario ya recibió todas las respuestas que admite.',
  notYet: (at) => `Este formulario abre el ${at}.`,
  ended: 'Este formulario ya no admite respuestas.',
  tooMany: 'Demasiadas respuestas desde tu dirección: espera un rato y vuelve a intentarlo.',
  honeypot: 'Deja este campo vacío',
  optional: '(opcional)',
  received: 'Respuesta recibida',
  yes: 'Sí',
  no: 'No',
};

const TEXTS: Record<Locale, FormTexts> = { en, es };

export const formTexts = (locale: string): FormTexts => (locale === 'es' ? TEXTS.es : TEXTS.en);
