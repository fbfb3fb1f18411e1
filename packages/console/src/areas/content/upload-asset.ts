import { admin } from '../../api/client';

/** Uploads a file to the space's assets (multipart: `file` and an optional `title`); answers the asset. */
export async function uploadAsset(spaceUid: string, file: File, title?: string) {
  const form = new FormData();
  form.append('file', file);
  if (title) form.append('title', title);
  const { data } = await admin.POST('/content/spaces/{space_uid}/assets', {
    params: { path: { space_uid: spaceUid } },
    body: form as never,
  });
  return data!;
}
