import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';

// The four OpenAPI documents against Redocly's recommended rules, as `redocly lint` runs them: what
// generators for other languages and API portals read must be clean, warnings included.

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

describe('the OpenAPI documents', () => {
  it.each(['admin', 'content', 'profile', 'customers'])('the %s document lints clean with the recommended rules', async (catalog) => {
    const res = await h.request({ method: 'GET', url: `/api/${catalog}/docs/openapi.json`, token: null });
    expect(res.statusCode).toBe(200);
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: res.body, absoluteRef: `${catalog}.json`, config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(found).toEqual([]);
  });
});
