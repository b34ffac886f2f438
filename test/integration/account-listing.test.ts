/**
 * `GET /accounts` on DynamoDB Local: a page is one index Query that stops one entry past the page (never
 * the organization's whole index) and one batch read of the page's accounts, in IBAN order, `after` an
 * IBAN for deep listings, and never another organization's account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { testIban } from '../support/delivery-queue-helpers';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
const operations: [string, number][] = [];
let directory: DynamoDirectoryStore;
const ibans = Array.from({ length: 150 }, (_, i) => testIban(1_000 + i)).sort();
const now = '2026-11-22T12:00:00.000Z';

beforeAll(async () => {
  resources = await isolatedResources({ label: 'accounts' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName, (op, units) =>
    operations.push([op, units]),
  );
  for (const orgId of ['org-many', 'org-other']) {
    await directory.createOrganization({ id: orgId, name: orgId, webhookToken: 'whsec_x', createdAt: now });
  }
  for (const iban of ibans) {
    await directory.putAccount({
      iban,
      orgId: 'org-many',
      endpointId: 'ep_000000000001',
      updatedAt: now,
    });
  }
  await directory.putAccount({ iban: testIban(5), orgId: 'org-other', updatedAt: now });
});

afterAll(async () => {
  await resources?.destroy();
});

describe('DynamoDirectoryStore.listAccounts', () => {
  it('reads one Query up to the page and one batch of its accounts', async () => {
    operations.length = 0;
    const page = await directory.listAccounts('org-many', { page: 2, perPage: 50 });
    expect(page.accounts.map((account) => account.iban)).toEqual(ibans.slice(50, 100));
    expect(page.hasMore).toBe(true);
    expect(operations.map(([op]) => op)).toEqual(['Query', 'BatchGetItem']);
    // 101 keys-only index entries: a few read units, not the organization's 150 entries and items.
    const [, queryUnits = 0] = operations[0] ?? [];
    operations.length = 0;
    await directory.listAccounts('org-many', { page: 1, perPage: 10 });
    const [, smallQueryUnits = 0] = operations[0] ?? [];
    expect(smallQueryUnits).toBeLessThan(queryUnits);
  });

  it('goes on after an IBAN, ends without more, and lists only its own organization', async () => {
    const after = ibans[139];
    const rest = await directory.listAccounts('org-many', { page: 1, perPage: 50, after });
    expect(rest.accounts.map((account) => account.iban)).toEqual(ibans.slice(140));
    expect(rest.hasMore).toBe(false);
    const other = await directory.listAccounts('org-other', { page: 1, perPage: 100 });
    expect(other.accounts.map((account) => account.iban)).toEqual([testIban(5)]);
    expect(await directory.listAccounts('org-many', { page: 4, perPage: 50 })).toEqual({
      accounts: [],
      hasMore: false,
    });
  });
});
