import { describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { testIban } from '../support/delivery-queue-helpers';
import { isolatedTable } from '../support/resources';
import { useFixture } from '../support/use-fixture';

let health: DynamoEndpointHealthStore;
let directory: DynamoDirectoryStore;

useFixture(
  async () => {
    const { documents, tableName, destroy } = await isolatedTable('health-store');
    return {
      health: new DynamoEndpointHealthStore(documents, tableName),
      directory: new DynamoDirectoryStore(documents, tableName),
      stop: destroy,
    };
  },
  (fixture) => {
    ({ health, directory } = fixture);
  },
);

const ORG = 'org-1';

async function account(iban = testIban(), orgId = ORG): Promise<string> {
  const now = new Date().toISOString();
  await directory.putAccount({
    iban,
    orgId,
    webhookUrl: 'https://h.example.com/',
    updatedAt: now,
  });
  return iban;
}

const at = '2026-11-20T10:00:00.000Z';

/** The attempts the tests record, at `at`: a failing answer, a healthy success and a slow one. */
const failed = (latencyMs: number) =>
  ({ kind: 'failure', at, latencyMs, reason: 'failing: answered 500' }) as const;
const healthy = (latencyMs: number) => ({ kind: 'success', at, latencyMs, state: 'healthy' }) as const;
const slow = (latencyMs: number) =>
  ({ kind: 'success', at, latencyMs, state: 'degraded', reason: 'slow' }) as const;

describe('DynamoEndpointHealthStore', () => {
  it('counts concurrent failures atomically and shows them on the account', async () => {
    const iban = await account();
    const fail = failed(12);
    await Promise.all(Array.from({ length: 5 }, () => health.recordAttempt({ iban, orgId: ORG }, fail)));
    expect((await directory.getAccount(iban))?.health).toMatchObject({
      state: 'degraded',
      consecutiveFailures: 5,
      failingSince: at,
      reason: 'failing: answered 500',
      recentLatencyMs: 12,
    });
  });

  it('opens the circuit, and a success closes it and clears the failures', async () => {
    const iban = await account();
    await health.recordAttempt({ iban, orgId: ORG }, failed(5));
    const open = await health.openCircuit(
      { iban, orgId: ORG },
      { until: Date.parse(at) + 30_000, seconds: 30, reason: 'circuit open: 5 consecutive failures' },
    );
    expect(open).toMatchObject({ circuitOpenUntil: Date.parse(at) + 30_000, circuitOpenSeconds: 30 });
    const closed = await health.recordAttempt({ iban, orgId: ORG }, healthy(20));
    expect(closed).toEqual({
      state: 'healthy',
      consecutiveFailures: 0,
      recoveredAt: at,
      recentLatencyMs: 20,
      lastFailureAt: at,
      since: undefined,
      reason: undefined,
      failingSince: undefined,
      circuitOpenUntil: undefined,
      circuitOpenSeconds: undefined,
    });
  });

  it('keeps a disabled endpoint disabled whatever answers, until enabled by its organization', async () => {
    const iban = await account();
    await health.disable({ iban, orgId: ORG }, { at, reason: 'receiver answered 410 Gone' });
    const after = await health.recordAttempt({ iban, orgId: ORG }, healthy(20));
    expect(after).toMatchObject({ state: 'disabled', reason: 'receiver answered 410 Gone' });
    expect((await health.takeSlot({ iban, orgId: ORG }, 0, Date.now() + 1000, Date.now())).taken).toBe(false);
    expect(await health.enable({ iban, orgId: 'org-2' }, at)).toBeUndefined();
    expect(await health.enable({ iban, orgId: 'org-1' }, at)).toMatchObject({
      previous: { state: 'disabled' },
    });
    expect((await directory.getAccount(iban))?.health).toMatchObject({
      state: 'healthy',
      consecutiveFailures: 0,
    });
  });

  it('writes a person’s disabling mark with the disabling only when it found the endpoint not disabled', async () => {
    const iban = await account();
    const first = await health.disable(
      { iban, orgId: ORG },
      { at, reason: 'disabled by its organization', noticed: `disabled@${at}` },
    );
    expect(first).toMatchObject({ state: 'disabled', since: at, noticed: `disabled@${at}` });
    const later = '2026-11-27T12:00:00.000Z';
    const second = await health.disable(
      { iban, orgId: ORG },
      { at: later, reason: 'disabled by an operator', noticed: `disabled@${later}` },
    );
    expect(second).toMatchObject({
      since: at,
      reason: 'disabled by its organization',
      noticed: `disabled@${at}`,
    });
  });

  it('gives a slot to one holder until released or expired, and releases it with the attempt’s write', async () => {
    const iban = await account();
    await health.recordAttempt({ iban, orgId: ORG }, slow(3000));
    const now = Date.now();
    const first = await health.takeSlot({ iban, orgId: ORG }, 0, now + 60_000, now);
    expect(first.taken).toBe(true);
    expect(first.health).toMatchObject({ state: 'degraded', reason: 'slow' });
    // A slow success is no recovery.
    expect(first.health?.recoveredAt).toBeUndefined();
    expect((await health.takeSlot({ iban, orgId: ORG }, 0, now + 60_000, now)).taken).toBe(false);
    // An expired lease is free again (a crashed holder).
    expect((await health.takeSlot({ iban, orgId: ORG }, 0, now + 120_000, now + 61_000)).taken).toBe(true);
    await health.recordAttempt({ iban, orgId: ORG }, slow(2500), { slot: 0, until: now + 120_000 });
    expect((await health.takeSlot({ iban, orgId: ORG }, 0, now + 60_000, now)).taken).toBe(true);
    await health.releaseSlot({ iban, orgId: ORG }, { slot: 0, until: now + 60_000 });
    expect((await health.takeSlot({ iban, orgId: ORG }, 0, now + 60_000, now)).taken).toBe(true);
  });

  it('writes nothing onto the account of another organization given the IBAN while an attempt was under way', async () => {
    const iban = await account();
    const now = Date.now();
    const lease = { slot: 0, until: now + 60_000 };
    await health.recordAttempt({ iban, orgId: ORG }, slow(3000));
    expect((await health.takeSlot({ iban, orgId: ORG }, 0, lease.until, now)).taken).toBe(true);
    // The account is deleted and erased (its tombstone gone), and another organization takes the IBAN.
    await directory.deleteAccount({ iban, orgId: ORG, deletedAt: at });
    expect(await directory.removeAccountTombstone(iban, ORG)).toBe(true);
    await account(iban, 'org-2');
    const failure = failed(9);

    // The attempt's writes are dropped, not errors: the attempt's record does not depend on them.
    expect(await health.recordAttempt({ iban, orgId: ORG }, failure, lease)).toBeUndefined();
    expect(
      await health.openCircuit(
        { iban, orgId: ORG },
        { until: now + 30_000, seconds: 30, reason: 'circuit open' },
      ),
    ).toBeUndefined();
    expect(
      await health.disable({ iban, orgId: ORG }, { at, reason: 'receiver answered 410 Gone' }),
    ).toBeUndefined();
    expect(
      await health.recordAttempt({ iban, orgId: ORG }, { kind: 'disable', at, reason: '410' }),
    ).toBeUndefined();
    expect(await health.recordAttempt({ iban, orgId: ORG }, healthy(5))).toBeUndefined();
    expect(await health.takeSlot({ iban, orgId: ORG }, 1, now + 60_000, now)).toEqual({
      taken: false,
      health: undefined,
    });
    expect(await health.endpointId(iban, ORG)).toBeUndefined();
    await health.releaseSlot({ iban, orgId: ORG }, lease);
    expect(await health.enable({ iban, orgId: ORG }, at)).toBeUndefined();

    const taken = await directory.getAccount(iban, { consistent: true });
    expect(taken).toMatchObject({
      orgId: 'org-2',
      health: { state: 'healthy', consecutiveFailures: 0 },
    });
    expect(taken?.health?.lastFailureAt).toBeUndefined();
    // Its own organization writes as before.
    expect(await health.recordAttempt({ iban, orgId: 'org-2' }, failure)).toMatchObject({
      consecutiveFailures: 1,
    });
    expect((await health.takeSlot({ iban, orgId: 'org-2' }, 1, now + 60_000, now)).taken).toBe(true);
  });
});
