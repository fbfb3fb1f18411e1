import { expect } from 'vitest';
import type { Harness } from '../helpers/harness.js';

/** Creates a campaign through the admin API and returns its body. */
export async function makeCampaign(h: Harness, realmUid: string, body: Record<string, unknown> = {}, token?: string) {
  const res = await h.request({
    method: 'POST', url: '/api/admin/messaging/campaigns', token,
    payload: { realm_uid: realmUid, name: 'Spring offer', type: 'mailing', subject: 'Hello {{ user.first_name }}', body: '<p>Hi {{ user.first_name }}!</p>', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Asks for a delivery of the campaign and returns its body. */
export async function deliver(h: Harness, campaignId: number, body: Record<string, unknown> = {}) {
  const res = await h.request({ method: 'POST', url: `/api/admin/messaging/campaigns/${campaignId}/deliveries`, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function showDelivery(h: Harness, campaignId: number, deliveryId: number) {
  const res = await h.request({ method: 'GET', url: `/api/admin/messaging/campaigns/${campaignId}/deliveries/${deliveryId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function messagesOf(h: Harness, deliveryId: number) {
  const res = await h.request({ method: 'GET', url: `/api/admin/messaging/message_deliveries?delivery_id=${deliveryId}&per_page=100` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().message_deliveries as Record<string, unknown>[];
}

/** A mail's raw text with its folded header lines joined again. */
export const unfolded = (raw: string) => raw.replace(/\r\n[ \t]+/g, ' ');

/** The address of a link in a mail's HTML part (quoted-printable soft breaks undone). */
export function linkIn(raw: string, pattern: RegExp): string {
  const unfolded = raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
  const found = pattern.exec(unfolded)?.[0];
  if (!found) throw new Error(`no ${pattern} in the mail:\n${raw}`);
  return found;
}

/** A message with each recipient's own tokens (tracking pixel, unsubscribe link) written as a preview writes them, `preview`. */
export const asPreview = (message: string) => message.replace(/(\/messaging\/(?:open|unsubscribe)\/)\d+\.[A-Za-z0-9_-]{32}/g, '$1preview');
