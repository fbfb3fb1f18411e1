import type { FastifyRequest } from 'fastify';
import { isLocale, preferredLocale, type Locale } from '../../i18n/locale.js';
import { html, type Markup } from './markup.js';

/**
 * Every text an end user reads on the realm pages and in the mails they send, in each language. The
 * English catalog fixes the keys and their parameters; the others are typed by it, so a text missing
 * in one language does not compile. The same thing is worded as the event titles word it
 * (events/catalog.ts): "Iniciar sesión", "Cerrar sesión", "Restaurar contraseña".
 */
const en = {
  locale: 'en' as Locale,
  minutes: (n: number) => `${n} minute${n === 1 ? '' : 's'}`,
  seconds: (n: number) => `${n} second${n === 1 ? '' : 's'}`,
  hours: (n: number) => `${n} hour${n === 1 ? '' : 's'}`,
  days: (n: number) => `${n} day${n === 1 ? '' : 's'}`,
  errorTitle: (title: string) => `Error: ${title}`,
  formExpired: 'This form has expired. Please try again.',
  notFoundTitle: 'Page not found',
  notFound: 'There is no sign-in page at this address. Check the link you followed.',
  badRequestTitle: 'Bad request',
  badRequest: 'This request could not be understood. Go back to the page you came from and try again.',

  signIn: 'Sign in',
  signInTo: (realm: string) => `Sign in to ${realm}`,
  emailOrUsername: 'Email or username',
  password: 'Password',
  forgotPasswordLink: 'Forgot your password?',
  createAccountLink: 'Create an account',
  codeSignInLink: 'Sign in with a code sent by email',
  signInFormExpired: 'This form has expired. Please sign in again.',
  signInBlank: 'Enter your email or username and your password.',
  signInLocked: (minutes: string) => `Too many failed sign-in attempts: this account is locked. Try again in ${minutes}.`,
  signInWrong: 'The email, username or password is not correct.',
  noticePasswordReset: 'Your password was changed. Sign in with the new one.',
  noticePasswordChanged: 'Your password was changed. Your other sessions were signed out.',

  signOut: 'Sign out',
  signOutOf: (realm: string) => `Sign out of ${realm}`,
  signedInAs: (who: string): Markup => html`You are signed in as <strong>${who}</strong>.`,
  notSignedIn: 'You are not signed in.',

  profileTitle: 'Your profile',
  profileHeading: (realm: string) => `Your ${realm} profile`,
  profileSignedInAs: (who: string): Markup => html`Signed in as <strong>${who}</strong>.`,
  email: 'Email',
  username: 'Username',
  impersonatedBy: (admin: string | null): Markup => html`Impersonated by <strong>${admin ?? 'a removed administrator'}</strong>: this session was opened by an administrator, and everything done in it is recorded as theirs.`,

  changePassword: 'Change password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  newPasswordAgain: 'New password again',
  enterCurrentPassword: 'Enter your current password.',
  enterNewPassword: 'Enter a new password.',
  newPasswordWeak: (weakness: string) => `The new password ${weakness}.`,
  passwordsDiffer: 'The two new passwords are not the same.',
  currentPasswordWrong: 'The current password is not correct.',
  changeLocked: (minutes: string) => `Too many wrong passwords: this account is locked. Try again in ${minutes}.`,
  backToProfile: 'Back to your profile',

  forgotPasswordTitle: 'Forgot your password',
  resetHeading: (realm: string) => `Reset your ${realm} password`,
  resetIntro: 'We will send a link for choosing a new password to your email address.',
  sendLink: 'Send me a link',
  backToSignIn: 'Back to sign in',
  resetSent: (identifier: string, minutes: string): Markup => html`If an account exists for <strong>${identifier}</strong>, we sent a link to its email address.
It is valid for ${minutes} and works once.`,
  enterIdentifier: 'Enter your email or username.',
  resetTooMany: (minutes: string) => `Too many password reset requests. Try again in ${minutes}.`,
  chooseNewPasswordTitle: 'Choose a new password',
  chooseNewPasswordHeading: (realm: string) => `Choose a new ${realm} password`,
  setNewPassword: 'Set the new password',
  linkNotValidTitle: 'Link not valid',
  linkGoneHeading: 'This link has expired',
  linkUnknownHeading: 'This link is not valid',
  resetLinkGone: 'This password reset link was already used, was replaced by a newer one, or has expired. Nothing was changed.',
  resetLinkUnknown: 'There is no password reset link at this address. Check the link you followed. Nothing was changed.',
  askForNewLink: 'Ask for a new link',

  codeSignInTitle: 'Sign in with a code',
  codeIntro: 'We will send a 6-digit sign-in code to your email address.',
  sendCode: 'Send me a code',
  passwordInstead: 'Sign in with a password instead',
  codeWait: (seconds: string) => `A code was sent a moment ago. You can ask for a new one in ${seconds}.`,
  enterCodeTitle: 'Enter your code',
  codeLabel: 'Sign-in code',
  sendNewCode: 'Send a new code',
  codeSent: (identifier: string, minutes: string): Markup => html`If <strong>${identifier}</strong> belongs to an account, we sent a 6-digit code to its email address.
It is valid for ${minutes}.`,
  codeFormExpired: 'This form has expired. Please enter the code again.',
  codeLocked: 'Too many wrong codes: this code no longer works. Ask for a new code.',
  codeWrong: 'This code is not correct or has expired.',
  codeMalformed: 'Enter the 6 digits of the code we sent you.',

  signUpTitle: 'Create an account',
  signUpHeading: (realm: string) => `Create your ${realm} account`,
  usernameOptional: 'Username (optional)',
  choose: 'Choose…',
  correctFields: 'Please correct the fields marked below.',
  createAccount: 'Create account',
  haveAccount: 'Already have an account? Sign in',
  signInExisting: 'Sign in to an existing account',
  invitedEmail: (email: string): Markup => html`Email: <strong>${email}</strong> (the invited address)`,
  invitedEmailTaken: 'An account with this email address exists already. Sign in with it instead.',
  invitationOnlyTitle: 'Sign-up by invitation only',
  invitationOnly: 'Accounts here are created by invitation only. If you were invited, open the link in the invitation mail.',
  invitationNotValidTitle: 'Invitation not valid',
  invitationGoneHeading: 'This invitation has expired',
  invitationUnknownHeading: 'This invitation is not valid',
  invitationGone: 'This invitation was already used, was replaced by a newer one, or has expired. Ask whoever invited you for a new one. Nothing was changed.',
  invitationUnknown: 'There is no invitation at this address. Check the link you followed. Nothing was changed.',
  signUpTooManyTitle: 'Too many sign-ups',
  signUpTooMany: (minutes: string) => `Too many accounts were created from your network. Try again in ${minutes}.`,
  activationSent: (email: string, hours: string): Markup => html`We sent a link to <strong>${email}</strong> to confirm your address.
Open it to activate your account: it is valid for ${hours} and works once.`,
  activationNoMail: (href: string): Markup => html`No mail? Look in your spam folder, or <a href="${href}">send the link again</a>.`,
  signUpThanks: 'Thank you for signing up',
  signUpModerated: 'An administrator will activate your account. You will be able to sign in once it is active.',
  checkEmailTitle: 'Check your email',
  signUpEmailTaken: 'If this address can be used, your account is ready. If you already had an account with it, sign in with your existing password.',
  /** A field's label and what is wrong with it, as "Email can't be blank." */
  fieldProblem: (label: string, messages: string) => `${label} ${messages}.`,
  /**
   * The user writer's field messages (users.ts, field-values.ts, security/passwords.ts), in English
   * exactly as the admin API answers them; `{name}` stands for a part carried over as it is. They
   * follow a field's label of any gender, so the other languages word them without agreement.
   */
  fieldMessages: {
    blank: "can't be blank",
    taken: 'has already been taken',
    invalid: 'is invalid',
    usernameFormat: 'may contain only letters, digits, ".", "-" and "_" (at most 100)',
    tooLong: 'is too long (maximum is {count} characters)',
    tooShort: 'is too short (minimum is {count} characters)',
    tooCommon: 'is too common',
    text: 'must be a text',
    number: 'must be a number',
    date: 'must be a date in the form YYYY-MM-DD',
    boolean: 'must be true or false',
    ticked: 'must be ticked',
    option: 'must be one of: {options}',
  },

  activateTitle: 'Activate your account',
  activateHeading: (realm: string) => `Activate your ${realm} account`,
  activationConfirm: (email: string): Markup => html`Confirm that <strong>${email}</strong> is your email address to activate your account and sign in.`,
  activateMyAccount: 'Activate my account',
  activationLinkGone: 'This activation link was already used, was replaced by a newer one, or has expired. Nothing was changed.',
  activationLinkUnknown: 'There is no activation link at this address. Check the link you followed. Nothing was changed.',
  activationResendIntro: 'We will send a new link for confirming your email address and activating your account.',
  sendNewLink: 'Send me a new link',
  enterEmail: 'Enter your email address.',
  activationTooMany: (minutes: string) => `Too many requests for new links. Try again in ${minutes}.`,
  activationResent: (email: string, hours: string): Markup => html`If an account waiting for confirmation uses <strong>${email}</strong>, we sent it a new link.
It is valid for ${hours} and works once; earlier links no longer work.`,
  /** Sign-in delegated to the realm's identity provider; `provider` is the button label its admin chose. */
  signInWith: (provider: string) => `Sign in with ${provider}`,
  delegationFailedTitle: 'Sign-in not completed',
  delegationUnavailable: (provider: string) => `${provider} is not answering at the moment. Try again later, or sign in with your password.`,
  delegationExpired: 'This sign-in has expired or was started in another browser. Start again from the sign-in page.',
  delegationNotThisBrowser: 'This sign-in answer does not belong to the sign-in started in this browser. Start again from the sign-in page.',
  delegationProviderChanged: 'The sign-in service of this realm changed while you were signing in. Start again from the sign-in page.',
  delegationDenied: (provider: string) => `You are not signed in: ${provider} did not allow the sign-in, or it was cancelled.`,
  delegationProviderError: (provider: string, error: string) => `${provider} could not sign you in (${error}).`,
  delegationUnverified: (provider: string) => `The answer of ${provider} could not be verified, so you are not signed in. Start again from the sign-in page.`,
  delegationAccountCreatedTitle: 'Account created',
  delegationPending: (provider: string) => `Your account was created. An administrator will activate it; then sign in with ${provider} again.`,
  /** Why a verified delegated sign-in was refused (delegation/accounts.ts). */
  delegationRefusals: {
    replayed: (_provider: string) => 'This sign-in was already used. Start again from the sign-in page.',
    inactive: (_provider: string) => 'Your account is not active. If you just signed up, an administrator has yet to activate it.',
    sign_up_closed: (provider: string) => `No account of this realm is linked to your ${provider} account, and this realm does not take new accounts here.`,
    no_verified_email: (provider: string) => `Your ${provider} account did not give a verified email address, which this realm needs to find or create your account.`,
    linked_elsewhere: (provider: string) => `The account with this email address is already linked to another ${provider} account.`,
    invalid: (_provider: string) => 'Your account could not be created:',
  },
  firstName: 'First name',
  lastName: 'Last name',
  secondLastName: 'Second last name',

  linkGoneTitle: 'Link no longer valid',
  linkUnknownTitle: 'Link not found',
  sessionLinkGone: 'This sign-in link has already been used or has expired (links work once, within two minutes). Ask for a new one.',
  sessionLinkUnknown: 'This sign-in link is not valid. Check the address, or ask for a new link.',

  unknownRealmTitle: 'Unknown realm',
  unknownRealm: 'There is no such sign-in service.',
  authorizeInvalidTitle: 'Sign-in request not valid',
  authorizeNoClient: 'The request does not name its application (client_id).',
  authorizeUnknownClient: 'The application (client_id) is not known.',
  authorizeNoRedirect: 'The request does not say where to return (redirect_uri).',
  authorizeUnknownRedirect: 'The return address (redirect_uri) is not registered for this application.',
  authorizeContact: 'The application that sent you here is not set up to sign in with this service. Please contact its provider.',

  resetMailSubject: (realm: string) => `Reset your ${realm} password`,
  resetMailText: (realm: string, url: string, minutes: string) => `To choose a new password for ${realm}, open this link:\n\n${url}\n\n`
    + `It is valid for ${minutes} and works once. If you did not ask for it, you can ignore this mail: your password stays as it is.\n`,
  codeMailSubject: (realm: string) => `Your ${realm} sign-in code`,
  codeMailText: (realm: string, code: string, minutes: string) => `Your sign-in code for ${realm} is ${code}.\n\n`
    + `It is valid for ${minutes} and works once. If you did not ask for it, you can ignore this mail.\n`,
  activationMailSubject: (realm: string) => `Confirm your ${realm} account`,
  activationMailText: (realm: string, url: string, hours: string) => `To confirm your email address and activate your ${realm} account, open this link:\n\n${url}\n\n`
    + `It is valid for ${hours} and works once. If you did not create this account, you can ignore this mail.\n`,
  accountExistsMailSubject: (realm: string) => `Your ${realm} account`,
  accountExistsMailText: (realm: string, loginUrl: string, passwordUrl: string) => `Someone asked to create a ${realm} account with this address, which already has one.\n\n`
    + `If it was you, sign in: ${loginUrl}\nIf you forgot your password, choose a new one: ${passwordUrl}\n\n`
    + 'If it was not you, you can ignore this mail: nothing was changed.\n',
  invitationMailSubject: (realm: string) => `You are invited to ${realm}`,
  invitationMailText: (realm: string, url: string, days: string) => `You are invited to create a ${realm} account with this address. To create it, open this link:\n\n${url}\n\n`
    + `It is valid for ${days} and works once. If you do not want an account, you can ignore this mail.\n`,
  unsubscribeTitle: 'Unsubscribe',
  unsubscribeQuestion: (realm: string) => `Stop receiving campaign messages from ${realm} at this address?`,
  unsubscribeButton: 'Unsubscribe',
  unsubscribedTitle: 'Unsubscribed',
  unsubscribed: 'You will receive no more campaign messages at this address.',
  unsubscribeLinkInvalid: 'This unsubscribe link is not valid, or its message no longer exists.',
};

export type Texts = typeof en;

const es: Texts = {
  locale: 'es',
  minutes: (n) => `${n} minuto${n === 1 ? '' : 's'}`,
  seconds: (n) => `${n} segundo${n === 1 ? '' : 's'}`,
  hours: (n) => `${n} hora${n === 1 ? '' : 's'}`,
  days: (n) => `${n} día${n === 1 ? '' : 's'}`,
  errorTitle: (title) => `Error: ${title}`,
  formExpired: 'Este formulario ha caducado. Inténtalo de nuevo.',
  notFoundTitle: 'Página no encontrada',
  notFound: 'No hay ninguna página de inicio de sesión en esta dirección. Revisa el enlace que seguiste.',
  badRequestTitle: 'Solicitud no válida',
  badRequest: 'No se pudo entender esta solicitud. Vuelve a la página de la que venías e inténtalo de nuevo.',

  signIn: 'Iniciar sesión',
  signInTo: (realm) => `Iniciar sesión en ${realm}`,
  emailOrUsername: 'Correo electrónico o nombre de usuario',
  password: 'Contraseña',
  forgotPasswordLink: '¿Olvidaste tu contraseña?',
  createAccountLink: 'Crear una cuenta',
  codeSignInLink: 'Iniciar sesión con un código enviado por correo electrónico',
  signInFormExpired: 'Este formulario ha caducado. Vuelve a iniciar sesión.',
  signInBlank: 'Escribe tu correo electrónico o nombre de usuario y tu contraseña.',
  signInLocked: (minutes) => `Demasiados intentos de inicio de sesión fallidos: esta cuenta está bloqueada. Inténtalo de nuevo en ${minutes}.`,
  signInWrong: 'El correo electrónico, el nombre de usuario o la contraseña no son correctos.',
  noticePasswordReset: 'Tu contraseña se cambió. Inicia sesión con la nueva.',
  noticePasswordChanged: 'Tu contraseña se cambió. Se cerraron tus otras sesiones.',

  signOut: 'Cerrar sesión',
  signOutOf: (realm) => `Cerrar sesión en ${realm}`,
  signedInAs: (who) => html`Has iniciado sesión como <strong>${who}</strong>.`,
  notSignedIn: 'No has iniciado sesión.',

  profileTitle: 'Tu perfil',
  profileHeading: (realm) => `Tu perfil de ${realm}`,
  profileSignedInAs: (who) => html`Sesión iniciada como <strong>${who}</strong>.`,
  email: 'Correo electrónico',
  username: 'Nombre de usuario',
  impersonatedBy: (admin) => html`Suplantación de identidad por <strong>${admin ?? 'un administrador eliminado'}</strong>: esta sesión la abrió un administrador, y todo lo que se haga en ella queda registrado como suyo.`,

  changePassword: 'Cambiar contraseña',
  currentPassword: 'Contraseña actual',
  newPassword: 'Nueva contraseña',
  newPasswordAgain: 'Repite la nueva contraseña',
  enterCurrentPassword: 'Escribe tu contraseña actual.',
  enterNewPassword: 'Escribe una nueva contraseña.',
  newPasswordWeak: (weakness) => `La nueva contraseña ${weakness}.`,
  passwordsDiffer: 'Las dos contraseñas nuevas no coinciden.',
  currentPasswordWrong: 'La contraseña actual no es correcta.',
  changeLocked: (minutes) => `Demasiadas contraseñas incorrectas: esta cuenta está bloqueada. Inténtalo de nuevo en ${minutes}.`,
  backToProfile: 'Volver a tu perfil',

  forgotPasswordTitle: 'Contraseña olvidada',
  resetHeading: (realm) => `Restaurar contraseña de ${realm}`,
  resetIntro: 'Te enviaremos a tu correo electrónico un enlace para elegir una nueva contraseña.',
  sendLink: 'Envíame un enlace',
  backToSignIn: 'Volver a iniciar sesión',
  resetSent: (identifier, minutes) => html`Si existe una cuenta para <strong>${identifier}</strong>, enviamos un enlace a su correo electrónico.
Es válido durante ${minutes} y funciona una sola vez.`,
  enterIdentifier: 'Escribe tu correo electrónico o nombre de usuario.',
  resetTooMany: (minutes) => `Demasiadas solicitudes para restaurar la contraseña. Inténtalo de nuevo en ${minutes}.`,
  chooseNewPasswordTitle: 'Elige una nueva contraseña',
  chooseNewPasswordHeading: (realm) => `Elige una nueva contraseña de ${realm}`,
  setNewPassword: 'Guardar la nueva contraseña',
  linkNotValidTitle: 'Enlace no válido',
  linkGoneHeading: 'Este enlace ha caducado',
  linkUnknownHeading: 'Este enlace no es válido',
  resetLinkGone: 'Este enlace para restaurar la contraseña ya se usó, fue reemplazado por uno más reciente o ha caducado. No se cambió nada.',
  resetLinkUnknown: 'No hay ningún enlace para restaurar la contraseña en esta dirección. Revisa el enlace que seguiste. No se cambió nada.',
  askForNewLink: 'Pedir un enlace nuevo',

  codeSignInTitle: 'Iniciar sesión con un código',
  codeIntro: 'Te enviaremos a tu correo electrónico un código de inicio de sesión de 6 dígitos.',
  sendCode: 'Envíame un código',
  passwordInstead: 'Iniciar sesión con contraseña',
  codeWait: (seconds) => `Se envió un código hace un momento. Puedes pedir uno nuevo en ${seconds}.`,
  enterCodeTitle: 'Escribe tu código',
  codeLabel: 'Código de inicio de sesión',
  sendNewCode: 'Enviar un código nuevo',
  codeSent: (identifier, minutes) => html`Si <strong>${identifier}</strong> pertenece a una cuenta, enviamos un código de 6 dígitos a su correo electrónico.
Es válido durante ${minutes}.`,
  codeFormExpired: 'Este formulario ha caducado. Vuelve a escribir el código.',
  codeLocked: 'Demasiados códigos incorrectos: este código ya no funciona. Pide un código nuevo.',
  codeWrong: 'Este código no es correcto o ha caducado.',
  codeMalformed: 'Escribe los 6 dígitos del código que te enviamos.',

  signUpTitle: 'Crear una cuenta',
  signUpHeading: (realm) => `Crea tu cuenta de ${realm}`,
  usernameOptional: 'Nombre de usuario (opcional)',
  choose: 'Elige…',
  correctFields: 'Corrige los campos marcados abajo.',
  createAccount: 'Crear cuenta',
  haveAccount: '¿Ya tienes una cuenta? Inicia sesión',
  signInExisting: 'Iniciar sesión en una cuenta existente',
  invitedEmail: (email) => html`Correo electrónico: <strong>${email}</strong> (la dirección invitada)`,
  invitedEmailTaken: 'Ya existe una cuenta con esta dirección de correo electrónico. Inicia sesión con ella.',
  invitationOnlyTitle: 'Registro solo por invitación',
  invitationOnly: 'Aquí las cuentas se crean solo por invitación. Si te invitaron, abre el enlace del correo de invitación.',
  invitationNotValidTitle: 'Invitación no válida',
  invitationGoneHeading: 'Esta invitación ha caducado',
  invitationUnknownHeading: 'Esta invitación no es válida',
  invitationGone: 'Esta invitación ya se usó, fue reemplazada por una más reciente o ha caducado. Pide una nueva a quien te invitó. No se cambió nada.',
  invitationUnknown: 'No hay ninguna invitación en esta dirección. Revisa el enlace que seguiste. No se cambió nada.',
  signUpTooManyTitle: 'Demasiados registros',
  signUpTooMany: (minutes) => `Se crearon demasiadas cuentas desde tu red. Inténtalo de nuevo en ${minutes}.`,
  activationSent: (email, hours) => html`Enviamos un enlace a <strong>${email}</strong> para confirmar tu dirección.
Ábrelo para activar tu cuenta: es válido durante ${hours} y funciona una sola vez.`,
  activationNoMail: (href) => html`¿No te llegó el correo? Revisa tu carpeta de correo no deseado o <a href="${href}">vuelve a enviar el enlace</a>.`,
  signUpThanks: 'Gracias por registrarte',
  signUpModerated: 'Un administrador activará tu cuenta. Podrás iniciar sesión cuando esté activa.',
  checkEmailTitle: 'Revisa tu correo electrónico',
  signUpEmailTaken: 'Si esta dirección se puede usar, tu cuenta está lista. Si ya tenías una cuenta con ella, inicia sesión con tu contraseña de siempre.',
  fieldProblem: (label, messages) => `${label}: ${messages}.`,
  fieldMessages: {
    blank: 'no puede estar en blanco',
    taken: 'ya está en uso',
    invalid: 'no tiene un formato válido',
    usernameFormat: 'solo puede contener letras, dígitos, ".", "-" y "_" (como máximo 100)',
    tooLong: 'tiene demasiados caracteres (el máximo es {count})',
    tooShort: 'tiene muy pocos caracteres (el mínimo es {count})',
    tooCommon: 'es demasiado común',
    text: 'debe ser un texto',
    number: 'debe ser un número',
    date: 'debe ser una fecha con la forma AAAA-MM-DD',
    boolean: 'debe ser verdadero o falso',
    ticked: 'debe marcarse',
    option: 'debe ser una de estas opciones: {options}',
  },

  activateTitle: 'Activa tu cuenta',
  activateHeading: (realm) => `Activa tu cuenta de ${realm}`,
  activationConfirm: (email) => html`Confirma que <strong>${email}</strong> es tu dirección de correo electrónico para activar tu cuenta e iniciar sesión.`,
  activateMyAccount: 'Activar mi cuenta',
  activationLinkGone: 'Este enlace de activación ya se usó, fue reemplazado por uno más reciente o ha caducado. No se cambió nada.',
  activationLinkUnknown: 'No hay ningún enlace de activación en esta dirección. Revisa el enlace que seguiste. No se cambió nada.',
  activationResendIntro: 'Te enviaremos un enlace nuevo para confirmar tu dirección de correo electrónico y activar tu cuenta.',
  sendNewLink: 'Envíame un enlace nuevo',
  enterEmail: 'Escribe tu dirección de correo electrónico.',
  activationTooMany: (minutes) => `Demasiadas solicitudes de enlaces nuevos. Inténtalo de nuevo en ${minutes}.`,
  activationResent: (email, hours) => html`Si una cuenta pendiente de confirmación usa <strong>${email}</strong>, le enviamos un enlace nuevo.
Es válido durante ${hours} y funciona una sola vez; los enlaces anteriores ya no funcionan.`,
  signInWith: (provider) => `Iniciar sesión con ${provider}`,
  delegationFailedTitle: 'Inicio de sesión no completado',
  delegationUnavailable: (provider) => `${provider} no responde en este momento. Inténtalo de nuevo más tarde o inicia sesión con tu contraseña.`,
  delegationExpired: 'Este inicio de sesión ha caducado o se empezó en otro navegador. Vuelve a empezar desde la página de inicio de sesión.',
  delegationNotThisBrowser: 'Esta respuesta no corresponde al inicio de sesión empezado en este navegador. Vuelve a empezar desde la página de inicio de sesión.',
  delegationProviderChanged: 'El servicio de inicio de sesión cambió mientras iniciabas sesión. Vuelve a empezar desde la página de inicio de sesión.',
  delegationDenied: (provider) => `No has iniciado sesión: ${provider} no permitió el inicio de sesión, o se canceló.`,
  delegationProviderError: (provider, error) => `${provider} no pudo iniciar tu sesión (${error}).`,
  delegationUnverified: (provider) => `No se pudo verificar la respuesta de ${provider}, así que no has iniciado sesión. Vuelve a empezar desde la página de inicio de sesión.`,
  delegationAccountCreatedTitle: 'Cuenta creada',
  delegationPending: (provider) => `Tu cuenta se creó. Un administrador la activará; después vuelve a iniciar sesión con ${provider}.`,
  delegationRefusals: {
    replayed: () => 'Este inicio de sesión ya se usó. Vuelve a empezar desde la página de inicio de sesión.',
    inactive: () => 'Tu cuenta no está activa. Si acabas de registrarte, un administrador todavía tiene que activarla.',
    sign_up_closed: (provider) => `Ninguna cuenta de este servicio está vinculada a tu cuenta de ${provider}, y aquí no se pueden crear cuentas nuevas.`,
    no_verified_email: (provider) => `Tu cuenta de ${provider} no dio una dirección de correo electrónico verificada, que este servicio necesita para encontrar o crear tu cuenta.`,
    linked_elsewhere: (provider) => `La cuenta con esta dirección de correo electrónico ya está vinculada a otra cuenta de ${provider}.`,
    invalid: () => 'No se pudo crear tu cuenta:',
  },
  firstName: 'Nombre',
  lastName: 'Apellido',
  secondLastName: 'Segundo apellido',

  linkGoneTitle: 'El enlace ya no es válido',
  linkUnknownTitle: 'Enlace no encontrado',
  sessionLinkGone: 'Este enlace de inicio de sesión ya se usó o ha caducado (los enlaces funcionan una vez, durante dos minutos). Pide uno nuevo.',
  sessionLinkUnknown: 'Este enlace de inicio de sesión no es válido. Revisa la dirección o pide un enlace nuevo.',

  unknownRealmTitle: 'Dominio desconocido',
  unknownRealm: 'No existe este servicio de inicio de sesión.',
  authorizeInvalidTitle: 'Solicitud de inicio de sesión no válida',
  authorizeNoClient: 'La solicitud no indica su aplicación (client_id).',
  authorizeUnknownClient: 'La aplicación (client_id) no es conocida.',
  authorizeNoRedirect: 'La solicitud no indica adónde volver (redirect_uri).',
  authorizeUnknownRedirect: 'La dirección de retorno (redirect_uri) no está registrada para esta aplicación.',
  authorizeContact: 'La aplicación que te envió aquí no está configurada para iniciar sesión con este servicio. Ponte en contacto con quien la ofrece.',

  resetMailSubject: (realm) => `Restaurar contraseña de ${realm}`,
  resetMailText: (realm, url, minutes) => `Para elegir una nueva contraseña de ${realm}, abre este enlace:\n\n${url}\n\n`
    + `Es válido durante ${minutes} y funciona una sola vez. Si no lo pediste, puedes ignorar este correo: tu contraseña no cambia.\n`,
  codeMailSubject: (realm) => `Tu código de inicio de sesión de ${realm}`,
  codeMailText: (realm, code, minutes) => `Tu código de inicio de sesión de ${realm} es ${code}.\n\n`
    + `Es válido durante ${minutes} y funciona una sola vez. Si no lo pediste, puedes ignorar este correo.\n`,
  activationMailSubject: (realm) => `Confirma tu cuenta de ${realm}`,
  activationMailText: (realm, url, hours) => `Para confirmar tu dirección de correo electrónico y activar tu cuenta de ${realm}, abre este enlace:\n\n${url}\n\n`
    + `Es válido durante ${hours} y funciona una sola vez. Si no creaste esta cuenta, puedes ignorar este correo.\n`,
  accountExistsMailSubject: (realm) => `Tu cuenta de ${realm}`,
  accountExistsMailText: (realm, loginUrl, passwordUrl) => `Alguien pidió crear una cuenta de ${realm} con esta dirección, que ya tiene una.\n\n`
    + `Si fuiste tú, inicia sesión: ${loginUrl}\nSi olvidaste tu contraseña, elige una nueva: ${passwordUrl}\n\n`
    + 'Si no fuiste tú, puedes ignorar este correo: no se cambió nada.\n',
  invitationMailSubject: (realm) => `Invitación a ${realm}`,
  invitationMailText: (realm, url, days) => `Te invitaron a crear una cuenta de ${realm} con esta dirección. Para crearla, abre este enlace:\n\n${url}\n\n`
    + `Es válido durante ${days} y funciona una sola vez. Si no quieres una cuenta, puedes ignorar este correo.\n`,
  unsubscribeTitle: 'Darse de baja',
  unsubscribeQuestion: (realm: string) => `¿Dejar de recibir mensajes de campañas de ${realm} en esta dirección?`,
  unsubscribeButton: 'Darme de baja',
  unsubscribedTitle: 'Baja confirmada',
  unsubscribed: 'No recibirás más mensajes de campañas en esta dirección.',
  unsubscribeLinkInvalid: 'Este enlace para darse de baja no es válido, o su mensaje ya no existe.',
};

const CATALOG: Record<Locale, Texts> = { en, es };

export const textsIn = (locale: Locale): Texts => CATALOG[locale];

/** A realm's default language; English for a value no catalog has. */
export const realmLanguage = (realm: { defaultLanguage: string } | undefined): Locale =>
  (realm && isLocale(realm.defaultLanguage) ? realm.defaultLanguage : 'en');

/** The texts of a page: the language the browser prefers among ours, else the realm's default language. */
export const pageTexts = (request: FastifyRequest, realm?: { defaultLanguage: string }): Texts =>
  textsIn(preferredLocale(request.headers['accept-language'], realmLanguage(realm)));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const FIELD_PATTERNS = Object.entries(en.fieldMessages).map(([key, template]) => ({
  key: key as keyof Texts['fieldMessages'],
  pattern: new RegExp(`^${escapeRegExp(template).replace(/\\\{(\w+)\\\}/g, '(?<$1>.+)')}$`),
}));

/** A field message of the user writer in the texts' language; one the catalog does not know stays as it is. */
export function fieldMessage(texts: Texts, message: string): string {
  for (const { key, pattern } of FIELD_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return texts.fieldMessages[key].replace(/\{(\w+)\}/g, (_, name: string) => match.groups?.[name] ?? '');
  }
  return message;
}
