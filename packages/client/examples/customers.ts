import { createCustomersClient, GrantExpiredError } from '@atrium/client';

const customers = createCustomersClient({ baseUrl: 'https://atrium.example.com', realm: 'bank', token: 'the user access token' });
const { data: me } = await customers.GET('/me');
const { data: events } = await customers.GET('/events', { params: { query: { page: '1' } } });
console.log(me?.email, events?.events.length);
await customers.GET('/me').catch((error: unknown) => { if (error instanceof GrantExpiredError) console.log('sign in again'); });
