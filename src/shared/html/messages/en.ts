import type { Locale } from '../../../i18n/locale.js';
import { html, type Markup } from '../markup.js';

/**
 * The English texts of the realm pages and their mails. This catalog fixes the keys and their
 * parameters (`Texts`); every other language is typed by it.
 */
export const en = {
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
  codeTooMany: (time: string) => `Too many codes were asked for. Try again in ${time}.`,
  enterCodeTitle: 'Enter your code',
  codeLabel: 'Sign-in code',
  sendNewCode: 'Send a new code',
  codeSent: (identifier: string, minutes: string): Markup => html`If <strong>${identifier}</strong> belongs to an account, we sent a 6-digit code to its email address.
It is valid for ${minutes}.`,
  codeFormExpired: 'This form has expired. Please enter the code again.',
  codeLocked: 'Too many wrong codes: this code no longer works. Ask for a new code.',
  codeLockedDay: (time: string) => `Too many wrong codes today: codes will work again in ${time}, or once you reset your password.`,
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
  emailChangeTitle: 'Confirm your new email address',
  emailChangeConfirm: (email: string): Markup => html`Confirm that <strong>${email}</strong> is your email address: your account will use it from now on.`,
  emailChangeButton: 'Use this address',
  emailChanged: (email: string): Markup => html`Your account's email address is now <strong>${email}</strong>.`,
  emailChangeLinkGone: 'This link was already used, was replaced by a newer one, or has expired. Your email address was not changed.',
  emailChangeLinkUnknown: 'There is no email change link at this address. Check the link you followed. Nothing was changed.',
  emailChangeTaken: 'Another account uses this email address now, so yours was not changed.',
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
    unverified_account: (provider: string) => `An account here already uses your email address, but that address was never confirmed, so it was not `
      + `linked to your ${provider} account. Sign in first with that account's password or with a code sent to your address; if you do `
      + `not know the password, choose a new one with "Forgot your password?", which also signs out anyone else. A code or a password `
      + `reset link confirms the address: then sign in with ${provider} again and it is linked.`,
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
  emailChangeMailSubject: (realm: string) => `Confirm your new ${realm} email address`,
  emailChangeMailText: (realm: string, url: string, hours: string) => `To make this the email address of your ${realm} account, open this link:\n\n${url}\n\n`
    + `It is valid for ${hours} and works once. If you did not ask for it, you can ignore this mail: nothing changes.\n`,
  emailChangeNoticeSubject: (realm: string) => `A change of your ${realm} email address was requested`,
  emailChangeNoticeText: (realm: string, email: string, hours: string) => `Someone signed in to your ${realm} account asked to change its email address to ${email}.\n\n`
    + `Nothing changes unless the link we sent to that address is opened within ${hours}. If it was not you, choose a new password `
    + 'from the sign-in page ("Forgot your password?"): that signs everyone else out and cancels the change if its link was not used yet.\n',
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
