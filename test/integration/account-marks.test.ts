/**
 * The marks the account logs keep on the account item, in DynamoDB Local: `seq_floor` only ever rises (a
 * conditional maximum: a lower or equal floor is a no-op, not an error), and never touches another
 * organization's account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { testIban } from '../support/delivery-queue-helpers';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let directory: DynamoDirectoryStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'account-marks' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName);
});

afterAll(async () => {
  await resources?.destroy();
});

const NOW = '2026-11-23T12:00:00.000Z';

describe('raiseSequenceFloor', () => {
  it('raises the floor to the highest sequence it was given, in any order', async () => {
    const iban = testIban();
    await directory.putAccount({ iban, orgId: 'org-a', updatedAt: NOW });
    const floor = async () => (await directory.getAccount(iban, { consistent: true }))?.sequenceFloor;
    expect(await floor()).toBeUndefined();
    await directory.raiseSequenceFloor(iban, 'org-a', 5);
    expect(await floor()).toBe(5);
    // Deletions reach the forwarder out of order: a lower one after a higher one changes nothing.
    await directory.raiseSequenceFloor(iban, 'org-a', 3);
    await directory.raiseSequenceFloor(iban, 'org-a', 5);
    expect(await floor()).toBe(5);
    await directory.raiseSequenceFloor(iban, 'org-a', 9);
    expect(await floor()).toBe(9);
    await directory.raiseSequenceFloor(iban, 'org-b', 20);
    expect(await floor()).toBe(9);
  });
});
