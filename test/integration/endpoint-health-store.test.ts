/**
 * `DynamoEndpointHealthStore` against DynamoDB Local: health on the account item, atomic failure counts,
 * disabled stays disabled, slots that free themselves, and the read-back through the directory.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { testIban } from '../support/delivery-queue-helpers';
import { type IsolatedResources, isolatedResources } from '../support/resources';
import { useFixture } from '../support/use-fixture';

let health: DynamoEndpointHealthStore;
let directory: DynamoDirectoryStore;

useFixture(
  async () => {
    const resources: IsolatedResources = await isolatedResources({ label: 'health-store' });
    const documents = DynamoDBDocumentClient.from(resources.dynamodb, {
      marshallOptions: { removeUndefinedValues: true },
    });
    return {
      health: new DynamoEndpointHealthStore(documents, resources.tableName),
      directory: new DynamoDirectoryStore(documents, resources.tableName),
      stop: async () => {
        documents.destroy();
        await resources.destroy();
      },
    };
  },
  (fixture) => {
    ({ health, directory } = fixture);
  },
);

async function account(): Promise<string> {
  const iban = testIban();
  const now = new Date().toISOString();
  await directory.putAccount({
    iban,
    orgId: 'org-1',
    webhookUrl: 'https://h.example.com/',
    updatedAt: now,
  });
  return iban;
}

const at = '2026-11-20T10:00:00.000Z';

describe('DynamoEndpointHealthStore', () => {
  it('counts concurrent failures atomically and shows them on the account', async () => {
    const iban = await account();
    const fail = { kind: 'failure', at, latencyMs: 12, reason: 'failing: answered 500' } as const;
    await Promise.all(Array.from({ length: 5 }, () => health.recordAttempt(iban, fail)));
    expect((await directory.getAccount(iban))?.webhookHealth).toMatchObject({
      state: 'degraded',
      consecutiveFailures: 5,
      failingSince: at,
      reason: 'failing: answered 500',
      recentLatencyMs: 12,
    });
  });

  it('opens the circuit, and a success closes it and clears the failures', async () => {
    const iban = await account();
    await health.recordAttempt(iban, { kind: 'failure', at, latencyMs: 5, reason: 'failing: answered 500' });
    const open = await health.openCircuit(
      iban,
      Date.parse(at) + 30_000,
      30,
      'circuit open: 5 consecutive failures',
    );
    expect(open).toMatchObject({ circuitOpenUntil: Date.parse(at) + 30_000, circuitOpenSeconds: 30 });
    const closed = await health.recordAttempt(iban, { kind: 'success', at, latencyMs: 20, state: 'healthy' });
    expect(closed).toEqual({
      state: 'healthy',
      consecutiveFailures: 0,
      lastSuccessAt: at,
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
    await health.disable(iban, at, 'receiver answered 410 Gone');
    const after = await health.recordAttempt(iban, { kind: 'success', at, latencyMs: 20, state: 'healthy' });
    expect(after).toMatchObject({ state: 'disabled', reason: 'receiver answered 410 Gone' });
    expect((await health.takeSlot(iban, 0, Date.now() + 1000, Date.now())).taken).toBe(false);
    expect(await health.enable(iban, 'org-2', at)).toBe(false);
    expect(await health.enable(iban, 'org-1', at)).toBe(true);
    expect((await directory.getAccount(iban))?.webhookHealth).toMatchObject({
      state: 'healthy',
      consecutiveFailures: 0,
    });
  });

  it('gives a slot to one holder until released or expired, and releases it with the attempt’s write', async () => {
    const iban = await account();
    await health.recordAttempt(iban, {
      kind: 'success',
      at,
      latencyMs: 3000,
      state: 'degraded',
      reason: 'slow',
    });
    const now = Date.now();
    const first = await health.takeSlot(iban, 0, now + 60_000, now);
    expect(first.taken).toBe(true);
    expect(first.health).toMatchObject({ state: 'degraded', reason: 'slow' });
    expect((await health.takeSlot(iban, 0, now + 60_000, now)).taken).toBe(false);
    // An expired lease is free again (a crashed holder).
    expect((await health.takeSlot(iban, 0, now + 120_000, now + 61_000)).taken).toBe(true);
    await health.recordAttempt(
      iban,
      { kind: 'success', at, latencyMs: 2500, state: 'degraded', reason: 'slow' },
      { slot: 0, until: now + 120_000 },
    );
    expect((await health.takeSlot(iban, 0, now + 60_000, now)).taken).toBe(true);
    await health.releaseSlot(iban, { slot: 0, until: now + 60_000 });
    expect((await health.takeSlot(iban, 0, now + 60_000, now)).taken).toBe(true);
  });
});
