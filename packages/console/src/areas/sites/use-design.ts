import { useQuery } from '@tanstack/react-query';
import { admin } from '../../api/client';
import type { DesignItem, DesignKind } from './design-kinds';

export const DESIGN_KEY = 'site-design';

/** A site's layouts, snippets or files, as DesignItems. */
export function useDesignList(siteUid: string, kind: DesignKind) {
  return useQuery({
    queryKey: [DESIGN_KEY, siteUid, kind],
    queryFn: async (): Promise<DesignItem[]> => {
      const path = { site_uid: siteUid };
      if (kind === 'files') {
        const { data } = await admin.GET('/sites/{site_uid}/files', { params: { path } });
        return data!.files.map((file) => ({ id: file.id, name: file.name, text: file.body, updated_at: file.updated_at }));
      }
      const { data } = kind === 'layouts'
        ? await admin.GET('/sites/{site_uid}/layouts', { params: { path } })
        : await admin.GET('/sites/{site_uid}/snippets', { params: { path } });
      const items = (data as { layouts?: Template[]; snippets?: Template[] })[kind] ?? [];
      return items.map((item) => ({ id: item.id, name: item.name, text: item.source, updated_at: item.updated_at }));
    },
  });
}
type Template = { id: number; name: string; source: string; updated_at: string };

/** Creates (id null) or changes a layout, snippet or file; answers the item. */
export async function saveDesignItem(siteUid: string, kind: DesignKind, id: number | null, name: string, text: string): Promise<DesignItem> {
  const path = { site_uid: siteUid };
  if (kind === 'files') {
    const body = { name, body: text };
    const { data } = id === null
      ? await admin.POST('/sites/{site_uid}/files', { params: { path }, body })
      : await admin.PUT('/sites/{site_uid}/files/{id}', { params: { path: { ...path, id } }, body });
    return { id: data!.id, name: data!.name, text: data!.body, updated_at: data!.updated_at };
  }
  const body = { name, source: text };
  let saved: Template;
  if (kind === 'layouts') {
    saved = (id === null
      ? await admin.POST('/sites/{site_uid}/layouts', { params: { path }, body })
      : await admin.PUT('/sites/{site_uid}/layouts/{id}', { params: { path: { ...path, id } }, body })).data!;
  } else {
    saved = (id === null
      ? await admin.POST('/sites/{site_uid}/snippets', { params: { path }, body })
      : await admin.PUT('/sites/{site_uid}/snippets/{id}', { params: { path: { ...path, id } }, body })).data!;
  }
  return { id: saved.id, name: saved.name, text: saved.source, updated_at: saved.updated_at };
}

/** Deletes a layout, snippet or file. */
export async function deleteDesignItem(siteUid: string, kind: DesignKind, id: number): Promise<void> {
  const params = { path: { site_uid: siteUid, id } };
  if (kind === 'files') await admin.DELETE('/sites/{site_uid}/files/{id}', { params });
  else if (kind === 'layouts') await admin.DELETE('/sites/{site_uid}/layouts/{id}', { params });
  else await admin.DELETE('/sites/{site_uid}/snippets/{id}', { params });
}
