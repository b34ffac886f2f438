/**
 * The operational webhook's storage against DynamoDB Local: a notice's delivery (its lease, attempts and
 * settlement) is kept on the notice's item with an event's conditions, and read back with the notice; the
 * operational webhook's health is an item of its own, created by its first write, read apart from the
 * organization's notices, and never written onto an organization's or an account's item.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoNoticeDeliveries, DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import type { DeliveryAttempt } from '#domain/model';
import { type Notice, noticeId, noticeSortKey } from '#domain/notices/notice';
import { isolatedTable } from '../support/resources';
import { useFixture } from '../support/use-fixture';

let log: DynamoOperationalLog;
let deliveries: DynamoNoticeDeliveries;
let health: DynamoEndpointHealthStore;
let read: (key: Record<string, string>) => Promise<Record<string, unknown> | undefined>;

useFixture(
  async () => {
    const { documents, tableName, destroy } = await isolatedTable('operational-webhook');
    return {
      log: new DynamoOperationalLog(documents, tableName),
      deliveries: new DynamoNoticeDeliveries(documents, tableName),
      health: new DynamoEndpointHealthStore(documents, tableName),
      read: async (key: Record<string, string>) =>
        (await documents.send(new GetCommand({ TableName: tableName, Key: key }))).Item,
      stop: destroy,
    };
  },
  (fixture) => {
    ({ log, deliveries, health, read } = fixture);
  },
);

const RUN = '2026-11-20T10:00:00.000Z';

function notice(orgId: string): Notice {
  const key = { kind: 'endpoint_failing' as const, orgId, endpointId: 'ep_0123456789abcdef', epoch: RUN };
  return {
    ...key,
    id: noticeId(key),
    account: 'DE89370400440532013000',
    at: RUN,
    consecutiveFailures: 4,
    lastAnswer: { status: 503, bodyExcerpt: 'busy' },
  };
}

const attempt = (status: number): DeliveryAttempt => ({
  deliveredAt: RUN,
  responseStatus: status,
  responseBody: `status ${status}`,
  responseTimeMs: 12,
  url: 'https://ops.example.com/herald',
  signingKeys: ['0123456789abcdef'],
});

describe('operational webhook storage', () => {
  it("keeps a notice's delivery on its item: leased once, attempts recorded, settled", async () => {
    const stored = notice('org-ops-1');
    expect(await log.record(stored)).toBe(true);
    const ref = { id: stored.id, orgId: stored.orgId, sortKey: noticeSortKey(stored) };
    const untouched = await deliveries.readNotice(ref);
    expect(untouched?.notice).toEqual(stored);
    expect(untouched?.delivery).toMatchObject({ status: 'pending', retries: 0, deliveries: [] });
    const claim = { expectedRetries: 0, untilEpochMs: 2_000, nowEpochMs: 1_000, dueByEpochMs: 1_000 };
    expect(await deliveries.takeLease(ref, claim)).toBe(true);
    // A copy of the message finds it leased.
    expect(await deliveries.takeLease(ref, claim)).toBe(false);
    const failed = await deliveries.recordAttempt(ref, attempt(500), 'pending', 5_000);
    expect(failed).toMatchObject({ status: 'pending', retries: 1, nextAttemptAt: 5_000 });
    const delivered = await deliveries.recordAttempt(ref, attempt(200), 'success');
    expect(delivered).toMatchObject({ status: 'success', retries: 2 });
    expect(delivered.deliveries.map((d) => d.responseStatus)).toEqual([500, 200]);
    expect(await deliveries.settlePending(ref, 'failed')).toBe(false);
    // The notice itself is untouched, and listed once with its delivery's status.
    const page = await log.page(stored.orgId, 0, 10);
    expect(page.notices).toEqual([{ ...stored, webhookStatus: 'success', webhookRetries: 2 }]);
    expect((await log.find(stored.orgId, stored.id))?.delivery).toMatchObject({
      status: 'success',
      retries: 2,
    });
    expect(await log.find('org-ops-other', stored.id)).toBeUndefined();
    // Another notice's ref at the place is not this one.
    expect(await deliveries.readNotice({ ...ref, id: 'ntc_other' })).toBeUndefined();
    // A settlement to skipped, for a notice with nowhere to go.
    const other = notice('org-ops-2');
    await log.record(other);
    const otherRef = { id: other.id, orgId: other.orgId, sortKey: noticeSortKey(other) };
    expect(await deliveries.settlePending(otherRef, 'skipped')).toBe(true);
    expect((await deliveries.readNotice(otherRef))?.delivery).toMatchObject({
      status: 'skipped',
      retries: 0,
    });
  });

  it("keeps the operational webhook's health on an item of its own, created by its first write", async () => {
    const orgId = 'org-ops-3';
    const address = { iban: '', orgId, operational: true as const };
    expect(await health.operationalHealth(orgId)).toBeUndefined();
    const failing = { kind: 'failure' as const, at: RUN, latencyMs: 30, reason: 'failing: answered 500' };
    expect(await health.recordAttempt(address, failing)).toMatchObject({
      state: 'degraded',
      consecutiveFailures: 1,
    });
    expect(await health.recordAttempt(address, failing)).toMatchObject({ consecutiveFailures: 2 });
    const taken = await health.takeSlot(address, 0, 9_000, 1_000);
    expect(taken.taken).toBe(true);
    expect((await health.takeSlot(address, 0, 9_000, 1_000)).taken).toBe(false);
    await health.releaseSlot(address, { slot: 0, until: 9_000 });
    expect(await health.operationalHealth(orgId)).toMatchObject({
      state: 'degraded',
      consecutiveFailures: 2,
    });
    // Its own item, of its organization; never the organization's item, and out of the notices' listing.
    expect(await read({ pk: `OPS#${orgId}#HEALTH`, sk: 'HEALTH' })).toMatchObject({ org_id: orgId });
    expect(await read({ pk: `ORG#${orgId}`, sk: 'ORG' })).toBeUndefined();
    expect((await log.page(orgId, 0, 10)).notices).toEqual([]);
    // Another organization's writes never reach it.
    const intruder = { iban: '', orgId: 'org-ops-4', operational: true as const };
    await health.recordAttempt(intruder, failing);
    expect(await health.operationalHealth(orgId)).toMatchObject({ consecutiveFailures: 2 });
    const recovered = { kind: 'success' as const, at: RUN, latencyMs: 30, state: 'healthy' as const };
    expect(await health.recordAttempt(address, recovered)).toMatchObject({
      state: 'healthy',
      consecutiveFailures: 0,
    });
  });
});
