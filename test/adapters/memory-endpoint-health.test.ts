/**
 * The in-memory endpoint health store keeps the DynamoDB adapter's rules for what a disable and an enable
 * remove (`dynamodb/endpoint-health-store.ts`): a disable drops the circuit with its length, an enable
 * drops the state, failures and circuit but keeps the endpoint's history.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryEndpointHealthStore } from '#adapters/memory/endpoint-health-store';

const IBAN = 'DE89370400440532013000';
const AT = '2026-11-20T09:00:00.000Z';

function storeWithOpenCircuit(): InMemoryEndpointHealthStore {
  const store = new InMemoryEndpointHealthStore();
  store.owners.set(IBAN, 'org-1');
  store.health.set(IBAN, {
    state: 'degraded',
    since: AT,
    reason: 'receiver answered 503',
    consecutiveFailures: 5,
    failingSince: AT,
    recoveredAt: '2026-11-19T09:00:00.000Z',
    lastFailureAt: AT,
    recentLatencyMs: 120,
    circuitOpenUntil: 1_790_000_000_000,
    circuitOpenSeconds: 60,
  });
  return store;
}

describe('the in-memory endpoint health store', () => {
  it('drops the circuit and its length when it disables the endpoint', async () => {
    const store = storeWithOpenCircuit();
    const health = await store.disable(
      { iban: IBAN, orgId: 'org-1' },
      { at: AT, reason: 'receiver answered 410 Gone' },
    );
    expect(health).toMatchObject({
      state: 'disabled',
      circuitOpenUntil: undefined,
      circuitOpenSeconds: undefined,
    });
  });

  it('keeps the certificate’s mark when it enables the endpoint, as the adapter keeps wh_cert_noticed', async () => {
    const store = storeWithOpenCircuit();
    await store.markCertificateNoticed({ iban: IBAN, orgId: 'org-1' }, '2026-12-01T00:00:00.000Z');
    await store.enable({ iban: IBAN, orgId: 'org-1' }, AT);
    expect(store.get(IBAN).certificateNoticed).toBe('2026-12-01T00:00:00.000Z');
  });

  it('keeps the recovery, last failure and latency when it enables the endpoint', async () => {
    const store = storeWithOpenCircuit();
    expect(await store.enable({ iban: IBAN, orgId: 'org-1' }, AT)).toMatchObject({
      previous: { state: 'degraded', consecutiveFailures: 5 },
    });
    expect(store.get(IBAN)).toEqual({
      state: 'healthy',
      consecutiveFailures: 0,
      since: AT,
      reason: 'enabled by an operator',
      recoveredAt: '2026-11-19T09:00:00.000Z',
      lastFailureAt: AT,
      recentLatencyMs: 120,
    });
  });
});
