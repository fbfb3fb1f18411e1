const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page shown when authorization cannot send the user back to the client (unknown client or redirect URI). */
export function errorPage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>
<body>
<main>
<h1>${escape(title)}</h1>
<p role="alert">${escape(message)}</p>
<p>The application that sent you here is not set up to sign in with this service. Please contact its provider.</p>
</main>
</body>
</html>
`;
}
