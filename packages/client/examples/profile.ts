import { createProfileClient } from '@atrium/client';

const profile = createProfileClient({ baseUrl: 'https://atrium.example.com', token: 'the user access token' });
const { data: me } = await profile.GET('/me');
const { data: sessions } = await profile.GET('/sessions');
console.log(me?.first_name, sessions);
