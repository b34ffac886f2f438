/**
 * Operational notices against DynamoDB Local: a notice is stored once whoever puts it, however many at
 * once; the endpoint's notice mark moves only from what its writer read, survives a recovery's write and
 * goes with an enabling; a second disabling keeps the first's time and reason, so every observer names
 * the same disabled notice; an enabling answers the health before it; the certificate mark is read with
 * the account.
 */
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { NOTICE_RETENTION_DAYS } from '#config/limits';
import { EVENTS_TABLE } from '#config/storage';
import { type Notice, noticeId, noticeSortKey } from '#domain/notices/notice';
import { testIban } from '../support/delivery-queue-helpers';
import { isolatedTable } from '../support/resources';
import { useFixture } from '../support/use-fixture';

let log: DynamoOperationalLog;
let health: DynamoEndpointHealthStore;
let directory: DynamoDirectoryStore;
let documents: DynamoDBDocumentClient;
let tableName: string;

useFixture(
  async () => {
    const { documents, tableName, destroy } = await isolatedTable('operational-notices');
    return {
      documents,
      tableName,
      log: new DynamoOperationalLog(documents, tableName),
      health: new DynamoEndpointHealthStore(documents, tableName),
      directory: new DynamoDirectoryStore(documents, tableName),
      stop: destroy,
    };
  },
  (fixture) => {
    ({ log, health, directory, documents, tableName } = fixture);
  },
);

const ORG = 'org-1';
const RUN = '2026-11-20T10:00:00.000Z';

function notice(kind: Notice['kind'], orgId = ORG, endpointId = 'ep_0123456789ab'): Notice {
  const key = { kind, orgId, endpointId, epoch: RUN };
  return {
    ...key,
    id: noticeId(key),
    account: 'DE89370400440532013000',
    at: new Date().toISOString(),
    consecutiveFailures: 4,
    lastAnswer: { status: 503, bodyExcerpt: 'busy' },
  };
}

async function account(): Promise<string> {
  const iban = testIban();
  await directory.putAccount({
    iban,
    orgId: ORG,
    webhookUrl: 'https://h.example.com/',
    updatedAt: new Date().toISOString(),
  });
  return iban;
}

describe('the operational log on DynamoDB', () => {
  it('stores a notice once when many consumers put it at once', async () => {
    const orgId = `org-${testIban()}`;
    const puts = await Promise.all(
      Array.from({ length: 8 }, () => log.record(notice('endpoint_failing', orgId))),
    );
    expect(puts.filter(Boolean)).toHaveLength(1);
    expect(await log.record(notice('endpoint_recovered', orgId))).toBe(true);
    expect(await log.record(notice('endpoint_disabling_soon', orgId))).toBe(true);
    // Newest first, a run's notices in the order they happen: paged by offset.
    const first = await log.page(orgId, 0, 2);
    expect(first.notices.map((n) => n.kind)).toEqual(['endpoint_recovered', 'endpoint_disabling_soon']);
    expect(first.hasMore).toBe(true);
    expect(first.notices[0]).toMatchObject({ orgId, lastAnswer: { status: 503, bodyExcerpt: 'busy' } });
    const second = await log.page(orgId, 2, 2);
    expect(second).toEqual({
      notices: [expect.objectContaining({ kind: 'endpoint_failing' })],
      hasMore: false,
    });
    expect(await log.page(`${orgId}-other`, 0, 10)).toEqual({ notices: [], hasMore: false });
  });
});

describe('the notice mark and the disabling on the endpoint’s item', () => {
  it('gives each notice the table’s TTL in its creating write, NOTICE_RETENTION_DAYS after it is stored', async () => {
    const stored = { ...notice('endpoint_failing', 'org-ttl'), at: '2026-11-20T10:00:04.000Z' };
    expect(await log.record(stored)).toBe(true);
    const item = await documents.send(
      new GetCommand({ TableName: tableName, Key: { pk: 'OPS#org-ttl', sk: noticeSortKey(stored) } }),
    );
    expect(item.Item?.[EVENTS_TABLE.timeToLiveAttribute]).toBe(
      Date.parse('2026-11-20T10:00:04.000Z') / 1000 + NOTICE_RETENTION_DAYS * 86_400,
    );
  });

  it('moves the mark only from what the writer read, keeps it through a recovery, removes it on enabling', async () => {
    const iban = await account();
    const at = { iban, orgId: ORG };
    await health.markNoticed(at, undefined, `failing@${RUN}`);
    // A consumer that read no mark comes late: the mark stays where the first one put it.
    await health.markNoticed(at, undefined, `failing@${RUN}x`);
    await health.recordAttempt(at, { kind: 'success', at: RUN, latencyMs: 10, state: 'healthy' });
    expect((await directory.getAccount(iban))?.health?.noticed).toBe(`failing@${RUN}`);
    await health.markNoticed(at, `failing@${RUN}`, `soon50@${RUN}`);
    expect((await directory.getAccount(iban))?.health?.noticed).toBe(`soon50@${RUN}`);
    await health.enable(at, RUN);
    expect((await directory.getAccount(iban))?.health?.noticed).toBeUndefined();
    await health.markNoticed({ iban, orgId: 'org-2' }, undefined, `failing@${RUN}`);
    expect((await directory.getAccount(iban))?.health?.noticed).toBeUndefined();
  });

  it('keeps the first disabling’s time and reason when two consumers disable at once, and frees the loser’s slot', async () => {
    const iban = await account();
    const at = { iban, orgId: ORG };
    await health.recordAttempt(at, { kind: 'failure', at: RUN, latencyMs: 10, reason: 'failing' });
    const now = Date.now();
    expect((await health.takeSlot(at, 1, now + 60_000, now)).taken).toBe(true);
    const first = await health.disable(at, {
      at: '2026-11-20T10:00:01.000Z',
      reason: 'receiver answered 410 Gone',
    });
    const second = await health.recordAttempt(
      at,
      { kind: 'disable', at: '2026-11-20T10:00:02.000Z', reason: 'another 410' },
      { slot: 1, until: now + 60_000 },
    );
    expect(first).toMatchObject({ state: 'disabled', since: '2026-11-20T10:00:01.000Z' });
    expect(second).toMatchObject({ since: '2026-11-20T10:00:01.000Z', reason: 'receiver answered 410 Gone' });
    await health.enable(at, RUN);
    expect((await health.takeSlot(at, 1, now + 60_000, now)).taken).toBe(true);
  });

  it('answers an enabling with the health before it, so of concurrent enablings only one finds it disabled, and the endpoint’s id', async () => {
    const iban = await account();
    const at = { iban, orgId: ORG };
    await health.disable(at, { at: '2026-11-20T10:00:01.000Z', reason: 'receiver answered 410 Gone' });
    const enablings = await Promise.all(Array.from({ length: 6 }, () => health.enable(at, RUN)));
    const found = enablings.map((enabling) => enabling?.previous.state);
    expect(found.filter((state) => state === 'disabled')).toHaveLength(1);
    expect(enablings.find((e) => e?.previous.state === 'disabled')?.previous).toMatchObject({
      since: '2026-11-20T10:00:01.000Z',
      reason: 'receiver answered 410 Gone',
    });
    // An account from before endpoint ids is given one by the first enabling; every later one names it.
    const ids = new Set(enablings.map((enabling) => enabling?.endpointId));
    expect([...ids]).toEqual([(await directory.getAccount(iban))?.endpointId]);
    expect([...ids][0]).toMatch(/^ep_[0-9a-f]{12}$/);
    expect(await health.enable({ iban, orgId: 'org-2' }, RUN)).toBeUndefined();
  });

  it('keeps the certificate mark on the endpoint’s item, read with the account, for the organization only', async () => {
    const iban = await account();
    const expires = '2026-12-15T00:00:00.000Z';
    await health.markCertificateNoticed({ iban, orgId: 'org-2' }, expires);
    expect((await directory.getAccount(iban))?.health?.certificateNoticed).toBeUndefined();
    await health.markCertificateNoticed({ iban, orgId: ORG }, expires);
    expect((await directory.getAccount(iban))?.health?.certificateNoticed).toBe(expires);
    // A certificate's notice is the certificate's: an enabling leaves the mark.
    await health.enable({ iban, orgId: ORG }, RUN);
    expect((await directory.getAccount(iban))?.health?.certificateNoticed).toBe(expires);
  });
});
