import { emitWebhookEvent } from '../../src/webhooks/outbox.js';
import type { Harness } from '../helpers/harness.js';

/** Puts an event in the outbox the way a change does (until the routes emit their own, see notes/events.md). */
export async function emit(h: Harness, type: string, realmUid: string | null, data: Record<string, unknown> = {}): Promise<void> {
  await h.ctx.db.transaction((tx) => emitWebhookEvent(h.ctx, tx, { type, realmUid, data: { ...(realmUid ? { realm_uid: realmUid } : {}), ...data } }));
}
