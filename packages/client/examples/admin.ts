import { createAdminClient, pages } from '@atrium/client';

const admin = createAdminClient({ baseUrl: 'https://atrium.example.com', token: 'an admin API token' });
const { data: realm } = await admin.POST('/realms', { body: { uid: 'bank', name: 'Personal Banking' } });
await admin.POST('/customers/{realm_uid}/users', { params: { path: { realm_uid: realm!.uid } }, body: { email: 'ana@example.com' } });
for await (const user of pages((page) => admin.GET('/customers/{realm_uid}/users', { params: { path: { realm_uid: 'bank' }, query: { page } } }))) console.log(user.email);
