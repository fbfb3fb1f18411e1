import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';

/** Moments PostgreSQL's timestamptz cannot hold (no year 0) or JavaScript writes with a five-digit year. */
const UNSTORABLE = ['0000-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00', '10000-01-01T00:00:00Z', '2026-01-01T23:59:60Z'];
const STORABLE_EDGES = ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z'];

describe('date-times outside what the database stores answer 422, never 500', () => {
  let h: Harness;
  let realmUid: string;
  let campaignId: number;

  beforeAll(async () => {
    h = await startHarness();
    realmUid = (await makeRealm(h)).uid;
    const campaign = await h.request({
      method: 'POST', url: '/api/admin/messaging/campaigns',
      payload: { realm_uid: realmUid, name: 'Dates', type: 'mailing', subject: 'Hi', body: 'Hello' },
    });
    expect(campaign.statusCode).toBe(201);
    campaignId = campaign.json().id;
  });
  afterAll(async () => { await h?.close(); });

  const refusedBy = (res: { statusCode: number; json(): { details?: { field: string }[] } }, field: string) => {
    expect(res.statusCode).toBe(422);
    expect(res.json().details?.map((d) => d.field)).toContain(field);
  };

  it('refuses them as period filters of the audit log and of a realm\'s events', async () => {
    for (const moment of UNSTORABLE) {
      const q = encodeURIComponent(moment);
      refusedBy(await h.request({ method: 'GET', url: `/api/admin/logs?from=${q}` }), 'from');
      refusedBy(await h.request({ method: 'GET', url: `/api/admin/logs?to=${q}` }), 'to');
      refusedBy(await h.request({ method: 'GET', url: `/api/admin/customers/${realmUid}/events?from=${q}` }), 'from');
    }
  });

  it('refuses them as the start of a delivery, and writes no delivery', async () => {
    for (const moment of UNSTORABLE) {
      refusedBy(await h.request({ method: 'POST', url: `/api/admin/messaging/campaigns/${campaignId}/deliveries`, payload: { starts_at: moment } }), 'starts_at');
    }
    const list = await h.request({ method: 'GET', url: `/api/admin/messaging/campaigns/${campaignId}/deliveries` });
    expect(list.statusCode).toBe(200);
    expect(list.json().meta.total_entries).toBe(0);
  });

  it('takes the first and last moments of the range', async () => {
    for (const moment of STORABLE_EDGES) {
      const q = encodeURIComponent(moment);
      expect((await h.request({ method: 'GET', url: `/api/admin/logs?from=${q}` })).statusCode).toBe(200);
      expect((await h.request({ method: 'GET', url: `/api/admin/customers/${realmUid}/events?to=${q}` })).statusCode).toBe(200);
    }
  });
});
