import { finishSignIn, revoke, startSignIn, type RealmApp } from '@atrium/client/oauth';

const app: RealmApp = { baseUrl: 'https://atrium.example.com', realm: 'bank', clientId: 'my-app', redirectUri: 'https://app.example.com/callback' };
const { url, pending } = await startSignIn(app, { scope: 'public' }); // send the browser to `url`, keep `pending`
const tokens = await finishSignIn(app, 'https://app.example.com/callback?code=...&state=...', pending); // on the redirect back
await revoke(app, tokens.access_token);
console.log(url.href);
