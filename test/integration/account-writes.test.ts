/**
 * An account write in DynamoDB Local sets only the fields it gives (issue 28): a URL left out stays as
 * stored, `null` removes it, and what other writers keep on the item (the order's marks) is untouched. A
 * deleted account re-created without a URL has none: its tombstone keeps no URL to come back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import type { AccountWrite } from '#domain/ports';
import { testIban } from '../support/delivery-queue-helpers';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let directory: DynamoDirectoryStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'account-writes' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName, () => {});
});

afterAll(async () => {
  await resources?.destroy();
});

const NOW = '2026-11-23T12:00:00.000Z';
const URL_TEXT = 'https://a.example.com/hooks';
const write = (iban: string, fields: Partial<AccountWrite> = {}): AccountWrite => ({
  iban,
  orgId: 'org-a',
  updatedAt: NOW,
  ...fields,
});

describe('an account write', () => {
  it('keeps the URL it leaves out, removes it for null, and keeps the marks it does not name', async () => {
    const iban = testIban();
    await directory.putAccount(write(iban, { webhookUrl: URL_TEXT, deliveryOrder: 'ordered' }));
    expect(await directory.advanceSettledThrough(iban, 'org-a', { from: 0, to: 4, epoch: 1 })).toBe(true);

    expect(await directory.putAccount(write(iban))).toMatchObject({
      webhookUrl: URL_TEXT,
      deliveryOrder: 'ordered',
      settledThrough: 4,
    });
    expect(await directory.putAccount(write(iban, { deliveryOrder: 'concurrent' }))).toMatchObject({
      webhookUrl: URL_TEXT,
      settledThrough: 4,
    });

    const removed = await directory.putAccount(write(iban, { webhookUrl: null }));
    expect(removed.webhookUrl).toBeUndefined();
    expect((await directory.getAccount(iban, { consistent: true }))?.webhookUrl).toBeUndefined();
    expect(
      (await directory.putAccount(write(iban, { deliveryOrder: 'ordered' }))).webhookUrl,
    ).toBeUndefined();
  });

  it('creates a new account without a URL, and re-creates a deleted one without its old URL', async () => {
    const iban = testIban();
    expect((await directory.putAccount(write(iban))).webhookUrl).toBeUndefined();
    await directory.putAccount(write(iban, { webhookUrl: URL_TEXT }));
    await directory.deleteAccount({ iban, orgId: 'org-a', deletedAt: NOW });
    const again = await directory.putAccount(write(iban));
    expect(again).toMatchObject({ iban, orgId: 'org-a' });
    expect(again.webhookUrl).toBeUndefined();
  });
});
