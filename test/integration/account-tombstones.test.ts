/**
 * Accounts deleted without erasing their events, in DynamoDB Local (issue 16): the tombstone keeps the
 * IBAN with its organization, is invisible to reads and listings, refuses another organization with a
 * message that does not name the first, lets the same organization re-create the account, takes no
 * health write, and goes once its organization removes it; it keeps the log's sequence floor, so an
 * account created again continues above it once retention emptied its log (issue 28).
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { keys } from '#adapters/dynamodb/items';
import { DynamoOperationalLog } from '#adapters/dynamodb/operational-log';
import { ConflictError } from '#domain/errors';
import type { Account } from '#domain/model';
import { deleteAccount } from '#use-cases/accounts/delete-account';
import { recordEvent } from '#use-cases/events/record-event';
import { keepFloorAfterExpiry } from '#use-cases/events/sequence-floor';
import { testIban } from '../support/delivery-queue-helpers';
import { publishCatalog } from '../support/event-type-catalog';
import { TRANSFER, transferPayload } from '../support/payloads';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let directory: DynamoDirectoryStore;
let health: DynamoEndpointHealthStore;
const reads: { op: string; units: number }[] = [];

beforeAll(async () => {
  resources = await isolatedResources({ label: 'tombstones' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName, (op, units) =>
    reads.push({ op, units }),
  );
  health = new DynamoEndpointHealthStore(resources.documents, resources.tableName);
});

afterAll(async () => {
  await resources?.destroy();
});

const NOW = '2026-11-22T12:00:00.000Z';
const account = (iban: string, orgId: string, webhookUrl?: string): Account => ({
  iban,
  orgId,
  webhookUrl,
  createdAt: NOW,
  updatedAt: NOW,
});

describe('account tombstones', () => {
  it('keep the IBAN with its organization until removed, invisible to reads', async () => {
    const iban = testIban();
    await directory.putAccount(account(iban, 'org-a', 'https://a.example.com/'));
    await health.recordAttempt(
      { iban, orgId: 'org-a' },
      { kind: 'failure', at: NOW, reason: 'HTTP 500', latencyMs: 5 },
    );
    expect(await directory.deleteAccount({ iban, orgId: 'org-b', deletedAt: NOW })).toBeUndefined();
    expect(await directory.deleteAccount({ iban, orgId: 'org-a', deletedAt: NOW })).toMatchObject({ iban });

    expect(await directory.getAccount(iban)).toBeUndefined();
    expect(await directory.getAccount(iban, { consistent: true })).toBeUndefined();
    expect((await directory.listAccounts('org-a', { page: 1, perPage: 100 })).accounts).toEqual([]);
    expect(await directory.getAccountTombstone(iban)).toEqual({ iban, orgId: 'org-a', deletedAt: NOW });
    // Nothing about the endpoint can be written onto it, not even by its own organization.
    expect(
      await health.recordAttempt(
        { iban, orgId: 'org-a' },
        {
          kind: 'failure',
          at: NOW,
          reason: 'HTTP 500',
          latencyMs: 5,
        },
      ),
    ).toBeUndefined();
    expect(await health.enable({ iban, orgId: 'org-a' }, NOW)).toBeUndefined();

    const taken = directory.putAccount(account(iban, 'org-b', 'https://b.example.com/'));
    await expect(taken).rejects.toBeInstanceOf(ConflictError);
    await expect(taken).rejects.toThrow(/still holds another organization's events: erase them first/);
    await expect(taken).rejects.not.toThrow(/org-a/);

    expect(await directory.removeAccountTombstone(iban, 'org-b')).toBe(false);
    expect(await directory.removeAccountTombstone(iban, 'org-a')).toBe(true);
    expect(await directory.getAccountTombstone(iban)).toBeUndefined();
    expect(await directory.putAccount(account(iban, 'org-b'))).toMatchObject({ orgId: 'org-b' });
  });

  it('let the same organization re-create the account, fresh: listed again, healthy, new created_at', async () => {
    const iban = testIban();
    await directory.putAccount(account(iban, 'org-c', 'https://c.example.com/'));
    await health.disable({ iban, orgId: 'org-c' }, { at: NOW, reason: 'receiver answered 410 Gone' });
    await directory.deleteAccount({ iban, orgId: 'org-c', deletedAt: NOW });
    const later = '2026-11-23T08:00:00.000Z';
    const again = await directory.putAccount({
      ...account(iban, 'org-c', 'https://c2.example.com/'),
      updatedAt: later,
    });
    expect(again).toMatchObject({
      iban,
      orgId: 'org-c',
      webhookUrl: 'https://c2.example.com/',
      createdAt: later,
    });
    expect(again.health?.state).toBe('healthy');
    expect(
      (await directory.listAccounts('org-c', { page: 1, perPage: 100 })).accounts.map((a) => a.iban),
    ).toEqual([iban]);
    expect(await directory.getAccountTombstone(iban)).toBeUndefined();
  });

  it('refuse another organization’s live account with the plain message', async () => {
    const iban = testIban();
    await directory.putAccount(account(iban, 'org-d'));
    await expect(directory.putAccount(account(iban, 'org-e'))).rejects.toThrow(
      `Account ${iban} belongs to another organization.`,
    );
  });

  it('read strongly consistently when asked: one read unit for an account or an organization', async () => {
    const iban = testIban();
    await directory.putAccount(account(iban, 'org-f'));
    await directory.createOrganization({ id: 'org-f', name: 'F', webhookToken: 'whsec_x', createdAt: NOW });
    reads.length = 0;
    await directory.getAccount(iban, { consistent: true });
    await directory.getOrganization('org-f', { consistent: true });
    await directory.getAccount(iban);
    expect(reads).toEqual([
      { op: 'GetItem', units: 1 },
      { op: 'GetItem', units: 1 },
      { op: 'GetItem', units: 0.5 },
    ]);
  });

  it('keep the log’s floor: created again after retention emptied the log, the account continues above it', async () => {
    const iban = testIban();
    const events = new DynamoEventStore(resources.documents, resources.tableName);
    await directory.putAccount(account(iban, 'org-g', 'https://g.example.com/'));
    const publish = async (n: number) =>
      (
        await recordEvent(
          {
            events,
            directory,
            baseUrl: 'https://api.example.test',
            retentionDays: async () => undefined,
            catalog: publishCatalog().catalog,
          },
          {
            id: `00000000-0000-4000-8000-0000000000${n}0`,
            account: iban,
            type: TRANSFER,
            payload: transferPayload({ transfer_id: `tr_${n}` }),
          },
        )
      ).event.sequence;
    expect([await publish(1), await publish(2)]).toEqual([1, 2]);
    await deleteAccount(
      {
        directory,
        events,
        now: () => Date.parse(NOW),
        endpoints: new DynamoEndpointStore(resources.documents, resources.tableName),
        notices: new DynamoOperationalLog(resources.documents, resources.tableName),
      },
      { iban, orgId: 'org-g', erase: false },
    );
    expect(await directory.getAccountTombstone(iban)).toEqual({
      iban,
      orgId: 'org-g',
      deletedAt: NOW,
      sequenceFloor: 2,
    });
    // Retention deletes both events (as the TTL would), and the forwarder raises the tombstone's floor;
    // another organization's raise does nothing.
    for (const sequence of [1, 2]) {
      await resources.documents.send(
        new DeleteCommand({
          TableName: resources.tableName,
          Key: { pk: keys.log('org-g', iban), sk: keys.sequence(sequence) },
        }),
      );
    }
    await keepFloorAfterExpiry({ directory }, [{ id: '', orgId: 'org-g', account: iban, sequence: 3 }]);
    await directory.raiseSequenceFloor(iban, 'org-h', 9);
    expect((await directory.getAccountTombstone(iban))?.sequenceFloor).toBe(3);

    expect(
      (await directory.putAccount(account(iban, 'org-g', 'https://g2.example.com/'))).sequenceFloor,
    ).toBe(3);
    expect(await publish(3)).toBe(4);
  });

  it('keep a floor retention raised after the deleting request read the account', async () => {
    const iban = testIban();
    await directory.putAccount(account(iban, 'org-i'));
    await directory.raiseSequenceFloor(iban, 'org-i', 7);
    // The caller read the account (and the log) before the raise: it names a lower floor.
    expect(
      await directory.deleteAccount({ iban, orgId: 'org-i', deletedAt: NOW, sequenceFloor: 5 }),
    ).toMatchObject({
      sequenceFloor: 7,
    });
    expect((await directory.getAccountTombstone(iban))?.sequenceFloor).toBe(7);
  });
});
