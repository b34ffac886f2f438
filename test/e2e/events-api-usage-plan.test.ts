/**
 * Each organization's own throttle through the local runtime with the real authorizer and handlers: the
 * authorizer names the organization as the usage key, one organization over its limit gets 429
 * problem+json, another one is unaffected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { type SeededTenant, TenantSeeder } from '#local/tenant-seed';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { type ApiClient, connectApi, expectProblem } from '../support/e2e-http';
import { testEndpoints, uniquePrefix } from '../support/resources';

const BURST = 3;
let runtime: LocalRuntime;
let api: ApiClient;
let orgA: SeededTenant;
let orgB: SeededTenant;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('usage'),
    authorizerCacheTtlSeconds: 0,
    // A bucket that does not refill within the test, and a quota that is not reached.
    organizationUsage: { rateLimit: 0.001, burstLimit: BURST, quotaPerDay: 1000 },
  });
  const documents = createDocumentClient();
  const seeder = new TenantSeeder(documents, runtime.tableName);
  orgA = await seeder.tenant('Busy org');
  orgB = await seeder.tenant('Quiet org');
  documents.destroy();
  api = await connectApi(runtime.baseUrl);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('per-organization throttle', () => {
  it('answers 429 to the organization over its limit and keeps serving the others', async () => {
    for (let i = 0; i < BURST; i++) {
      expect((await api.call('/events', { key: orgA.apiKey })).status).toBe(200);
    }
    const throttled = await api.call('/events', { key: orgA.apiKey });
    expect(expectProblem(throttled, 429).type).toBe('https://herald.dev/problems/too-many-requests');
    expect((await api.call('/events', { key: orgB.apiKey })).status).toBe(200);
    // Unauthenticated routes are not metered.
    expect((await api.call('/health')).status).toBe(200);
  });
});
