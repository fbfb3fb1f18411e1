import { html, type Page } from '../realms/pages/html.js';

/** The page shown when authorization cannot send the user back to the client (unknown client or redirect URI). */
export function errorPage(title: string, message: string): Page {
  return {
    title,
    body: html`<p role="alert" class="alert">${message}</p>
<p>The application that sent you here is not set up to sign in with this service. Please contact its provider.</p>`,
  };
}
