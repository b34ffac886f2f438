/**
 * An ordered account's marks in DynamoDB Local: the watermark moves only from the value and within the
 * order epoch the gate read; a restart (replay, redelivery) lowers it when above and always starts a new
 * epoch; a put that makes the account ordered starts one too. An ordered extra endpoint's marks are on its
 * own item, its watermark written with the endpoint (or with the write that makes it ordered).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import type { Account } from '#domain/model';
import { testIban } from '../support/delivery-queue-helpers';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let directory: DynamoDirectoryStore;
let endpoints: DynamoEndpointStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'order-marks' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName, () => {});
  endpoints = new DynamoEndpointStore(resources.documents, resources.tableName);
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

  it("keep an ordered extra endpoint's watermark on its item, stored with it, moved and restarted there alone", async () => {
    const iban = testIban();
    await directory.putAccount(account(iban, { endpointId: 'ep_00000000000d' }));
    const created = await endpoints.addEndpoint({
      iban,
      orgId: 'org-a',
      id: 'ep_0000000000e1',
      url: 'https://e.example.com/',
      deliveryOrder: 'ordered',
      settledThrough: 7,
      createdAt: NOW,
    });
    expect(created).toMatchObject({ deliveryOrder: 'ordered', settledThrough: 7, orderEpoch: 1 });
    const stored = async () => (await endpoints.listEndpoints(iban, 'org-a', { consistent: true }))[0];
    expect(await stored()).toMatchObject({ extra: 'ep_0000000000e1', settledThrough: 7, orderEpoch: 1 });
    const move = { from: 7, to: 9, epoch: 1 };
    expect(
      await directory.advanceSettledThrough(iban, 'org-a', { ...move, epoch: 0 }, 'ep_0000000000e1'),
    ).toBe(false);
    expect(await directory.advanceSettledThrough(iban, 'org-a', move, 'ep_0000000000e1')).toBe(true);
    await directory.restartOrder(iban, 'org-a', 8, 'ep_0000000000e1');
    expect(await stored()).toMatchObject({ settledThrough: 8, orderEpoch: 2 });
    // The account's own order (its default endpoint's) is not touched.
    const own = await directory.getAccount(iban, { consistent: true });
    expect(own?.settledThrough).toBeUndefined();
    expect(own?.orderEpoch).toBeUndefined();
  });

  it("start a concurrent extra endpoint's watermark in the write that makes it ordered", async () => {
    const iban = testIban();
    await directory.putAccount(account(iban, { endpointId: 'ep_00000000000d' }));
    const id = 'ep_0000000000e2';
    await endpoints.addEndpoint({ iban, orgId: 'org-a', id, url: 'https://e.example.com/', createdAt: NOW });
    const updated = await endpoints.updateEndpoint({
      iban,
      orgId: 'org-a',
      id,
      deliveryOrder: 'ordered',
      settledThrough: 12,
      updatedAt: NOW,
    });
    expect(updated).toMatchObject({ deliveryOrder: 'ordered', settledThrough: 12, orderEpoch: 1 });
    // Already ordered: a write naming `ordered` again with no start keeps the watermark.
    await endpoints.updateEndpoint({ iban, orgId: 'org-a', id, deliveryOrder: 'ordered', updatedAt: NOW });
    expect((await endpoints.listEndpoints(iban, 'org-a', { consistent: true }))[0]?.settledThrough).toBe(12);
  });
});
