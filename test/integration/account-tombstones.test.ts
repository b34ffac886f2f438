/**
 * Accounts deleted without erasing their events, in DynamoDB Local (issue 16): the tombstone keeps the
 * IBAN with its organization, is invisible to reads and listings, refuses another organization with a
 * message that does not name the first, lets the same organization re-create the account, takes no
 * health write, and goes once its organization removes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { ConflictError } from '#domain/errors';
import type { Account } from '#domain/model';
import { testIban } from '../support/delivery-queue-helpers';
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
    await health.recordAttempt(iban, 'org-a', { kind: 'failure', at: NOW, reason: 'HTTP 500', latencyMs: 5 });
    expect(await directory.deleteAccount({ iban, orgId: 'org-b', deletedAt: NOW })).toBeUndefined();
    expect(await directory.deleteAccount({ iban, orgId: 'org-a', deletedAt: NOW })).toMatchObject({ iban });

    expect(await directory.getAccount(iban)).toBeUndefined();
    expect(await directory.getAccount(iban, { consistent: true })).toBeUndefined();
    expect((await directory.listAccounts('org-a', { page: 1, perPage: 100 })).accounts).toEqual([]);
    expect(await directory.getAccountTombstone(iban)).toEqual({ iban, orgId: 'org-a', deletedAt: NOW });
    // Nothing about the endpoint can be written onto it, not even by its own organization.
    expect(
      await health.recordAttempt(iban, 'org-a', {
        kind: 'failure',
        at: NOW,
        reason: 'HTTP 500',
        latencyMs: 5,
      }),
    ).toBeUndefined();
    expect(await health.enable(iban, 'org-a', NOW)).toBe(false);

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
    await health.disable(iban, 'org-c', NOW, 'receiver answered 410 Gone');
    await directory.deleteAccount({ iban, orgId: 'org-c', deletedAt: NOW });
    const later = '2026-11-23T08:00:00.000Z';
    const again = await directory.putAccount({
      ...account(iban, 'org-c', 'https://c2.example.com/'),
      createdAt: later,
      updatedAt: later,
    });
    expect(again).toMatchObject({
      iban,
      orgId: 'org-c',
      webhookUrl: 'https://c2.example.com/',
      createdAt: later,
    });
    expect(again.webhookHealth?.state).toBe('healthy');
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
});
