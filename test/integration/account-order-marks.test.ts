/**
 * An ordered account's marks in DynamoDB Local: the watermark moves only from the value and within the
 * order epoch the gate read; a restart (replay, redelivery) lowers it when above and always starts a new
 * epoch; a put that makes the account ordered starts one too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import type { Account } from '#domain/model';
import { testIban } from '../support/delivery-queue-helpers';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let directory: DynamoDirectoryStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'order-marks' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName, () => {});
});

afterAll(async () => {
  await resources?.destroy();
});

const NOW = '2026-11-23T12:00:00.000Z';
const account = (iban: string, fields: Partial<Account> = {}): Account => ({
  iban,
  orgId: 'org-a',
  webhookUrl: 'https://a.example.com/',
  createdAt: NOW,
  updatedAt: NOW,
  ...fields,
});

describe('account order marks', () => {
  it('move the watermark only within the epoch read, and restart it in a new one', async () => {
    const iban = testIban();
    await directory.putAccount(account(iban));
    expect(await directory.advanceSettledThrough(iban, 'org-a', { from: 0, to: 3, epoch: 0 })).toBe(true);
    // A restart whose watermark is not above: only the epoch moves; a gate of epoch 0 is refused.
    await directory.restartOrder(iban, 'org-a', 5);
    expect(await directory.getAccount(iban, { consistent: true })).toMatchObject({
      settledThrough: 3,
      orderEpoch: 1,
    });
    expect(await directory.advanceSettledThrough(iban, 'org-a', { from: 3, to: 6, epoch: 0 })).toBe(false);
    expect(await directory.advanceSettledThrough(iban, 'org-a', { from: 3, to: 6, epoch: 1 })).toBe(true);
    await directory.restartOrder(iban, 'org-a', 2);
    expect(await directory.getAccount(iban, { consistent: true })).toMatchObject({
      settledThrough: 2,
      orderEpoch: 2,
    });
    expect(await directory.advanceSettledThrough(iban, 'org-b', { from: 2, to: 4, epoch: 2 })).toBe(false);
  });

  it('start a new epoch when a put makes the account ordered, keeping the watermark', async () => {
    const iban = testIban();
    await directory.putAccount(account(iban));
    expect((await directory.getAccount(iban, { consistent: true }))?.orderEpoch).toBeUndefined();
    expect(await directory.putAccount(account(iban, { deliveryOrder: 'ordered' }))).toMatchObject({
      deliveryOrder: 'ordered',
      orderEpoch: 1,
    });
    expect(await directory.advanceSettledThrough(iban, 'org-a', { from: 0, to: 4, epoch: 1 })).toBe(true);
    expect(await directory.putAccount(account(iban))).toMatchObject({ orderEpoch: 1, settledThrough: 4 });
    // A switch's start only raises the watermark of an ordered account.
    await directory.startOrder(iban, 'org-a', 9);
    expect((await directory.getAccount(iban, { consistent: true }))?.settledThrough).toBe(9);
    await directory.startOrder(iban, 'org-a', 5);
    expect((await directory.getAccount(iban, { consistent: true }))?.settledThrough).toBe(9);
    await directory.putAccount(account(iban, { deliveryOrder: 'concurrent' }));
    await directory.startOrder(iban, 'org-a', 12);
    expect((await directory.getAccount(iban, { consistent: true }))?.settledThrough).toBe(9);
  });
});
