import { createContentClient } from '@atrium/client';

const content = createContentClient({ baseUrl: 'https://atrium.example.com' });
const path = { space_uid: 'magazine', type_uid: 'article' };
const { data } = await content.GET('/spaces/{space_uid}/types/{type_uid}/entries', { params: { path, query: { sort_by: 'name' } } });
for (const entry of data?.entries ?? []) console.log(entry.meta?.name, entry.fields?.title);
