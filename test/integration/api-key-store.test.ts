/**
 * API keys and organization tokens in DynamoDB Local: keys found by hash, listed and revoked by id
 * through the `by-org` index (and only within their organization), the key limit held by the
 * organization's count under 60 concurrent creations, keys from before the count counted once, keys
 * issued before ids and scopes read as `manage` keys, and a rotation's previous token stored and cleared.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import type { ApiKey } from '#domain/model';
import { MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let keys: DynamoApiKeyStore;
let directory: DynamoDirectoryStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'apikeys' });
  keys = new DynamoApiKeyStore(resources.documents, resources.tableName);
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName);
});

afterAll(async () => {
  await resources?.destroy();
});

const organization = (id: string) =>
  directory.createOrganization({
    id,
    name: id,
    webhookToken: 'whsec_x',
    createdAt: '2026-11-22T12:00:00.000Z',
  });

/** The organization item's key count, as stored. */
async function storedCount(orgId: string): Promise<unknown> {
  const out = await resources.documents.send(
    new GetCommand({
      TableName: resources.tableName,
      Key: { pk: `ORG#${orgId}`, sk: 'ORG' },
      ConsistentRead: true,
    }),
  );
  return out.Item?.api_key_count;
}

const key = (id: string, orgId: string, more: Partial<ApiKey> = {}): ApiKey => ({
  id,
  orgId,
  name: `key ${id}`,
  scope: 'read',
  createdAt: '2026-11-22T12:00:00.000Z',
  ...more,
});

describe('DynamoApiKeyStore', () => {
  it('finds keys by hash, lists them by id and revokes only within the organization', async () => {
    await organization('org-a');
    await organization('org-b');
    await keys.createApiKey('h2', key('k2', 'org-a', { expiresAt: 1_900_000_000 }));
    await keys.createApiKey('h1', key('k1', 'org-a', { scope: 'manage' }));
    await keys.createApiKey('h3', key('k3', 'org-b'));
    await expect(keys.createApiKey('h1', key('k9', 'org-a'))).rejects.toThrow();

    expect(await keys.findApiKeyByHash('h2')).toEqual(key('k2', 'org-a', { expiresAt: 1_900_000_000 }));
    expect(await keys.findApiKeyByHash('nope')).toBeUndefined();
    expect((await keys.listApiKeys('org-a')).map((k) => [k.id, k.scope])).toEqual([
      ['k1', 'manage'],
      ['k2', 'read'],
    ]);

    expect(await keys.revokeApiKey('org-b', 'k1')).toBe(false);
    expect(await keys.revokeApiKey('org-a', 'k1')).toBe(true);
    expect(await keys.findApiKeyByHash('h1')).toBeUndefined();
    expect(await keys.revokeApiKey('org-a', 'k1')).toBe(false);
    expect((await keys.listApiKeys('org-a')).map((k) => k.id)).toEqual(['k2']);
    expect(await storedCount('org-a')).toBe(1);
    // The key's expiry is not the table's TTL attribute, which would delete it without the count.
    const item = await resources.documents.send(
      new GetCommand({ TableName: resources.tableName, Key: { pk: 'APIKEY#h2', sk: 'APIKEY' } }),
    );
    expect(item.Item).toMatchObject({ key_expires_at: 1_900_000_000 });
    expect(item.Item?.expires_at).toBeUndefined();
  });

  it('never stores more than the limit under 60 concurrent creations, and lists every key stored', async () => {
    await organization('org-race');
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        keys.createApiKey(`race-${i}`, key(`r${String(i).padStart(2, '0')}`, 'org-race')),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(MAX_API_KEYS_PER_ORG);
    const listed = await keys.listApiKeys('org-race');
    expect(listed).toHaveLength(MAX_API_KEYS_PER_ORG);
    const made = results.flatMap((created, i) => (created ? [`r${String(i).padStart(2, '0')}`] : []));
    expect(listed.map((k) => k.id)).toEqual(made);
    expect(await storedCount('org-race')).toBe(MAX_API_KEYS_PER_ORG);
    expect(await keys.createApiKey('race-late', key('late', 'org-race'))).toBe(false);
    expect(await keys.deleteApiKey(`race-${results.indexOf(true)}`, 'org-race', made[0] ?? '')).toBe(true);
    expect(await storedCount('org-race')).toBe(MAX_API_KEYS_PER_ORG - 1);
    expect(await keys.createApiKey('race-late', key('late', 'org-race'))).toBe(true);
  });

  it('counts the keys of an organization from before the count once, moving their expiry off TTL', async () => {
    await organization('org-old');
    const old = (n: number, more: Record<string, unknown> = {}) =>
      resources.documents.send(
        new PutCommand({
          TableName: resources.tableName,
          Item: {
            pk: `APIKEY#old-${n}`,
            sk: 'APIKEY',
            gsi1pk: 'ORG#org-old#APIKEYS',
            gsi1sk: `o${n}`,
            org_id: 'org-old',
            key_id: `o${n}`,
            name: 'portal session',
            scope: 'read',
            created_at: '2026-11-01T00:00:00.000Z',
            ...more,
          },
        }),
      );
    // An organization created before the count has none (new ones start at 0).
    expect(await storedCount('org-old')).toBe(0);
    await resources.documents.send(
      new UpdateCommand({
        TableName: resources.tableName,
        Key: { pk: 'ORG#org-old', sk: 'ORG' },
        UpdateExpression: 'REMOVE api_key_count',
      }),
    );
    for (let n = 0; n < 3; n++) await old(n);
    await old(3, { expires_at: 1_900_000_000 });
    expect(await storedCount('org-old')).toBeUndefined();
    // Concurrent first writers agree on one count.
    await Promise.all([
      keys.createApiKey('new-1', key('n1', 'org-old')),
      keys.createApiKey('new-2', key('n2', 'org-old')),
    ]);
    expect(await storedCount('org-old')).toBe(6);
    expect(await keys.findApiKeyByHash('old-3')).toMatchObject({ expiresAt: 1_900_000_000 });
    const moved = await resources.documents.send(
      new GetCommand({ TableName: resources.tableName, Key: { pk: 'APIKEY#old-3', sk: 'APIKEY' } }),
    );
    expect(moved.Item).toMatchObject({ key_expires_at: 1_900_000_000 });
    expect(moved.Item?.expires_at).toBeUndefined();
    expect(await keys.revokeApiKey('org-old', 'o0')).toBe(true);
    expect(await storedCount('org-old')).toBe(5);
  });

  it('reads a key issued before ids and scopes as a manage key, which is not listed', async () => {
    await resources.documents.send(
      new PutCommand({
        TableName: resources.tableName,
        Item: { pk: 'APIKEY#legacy', sk: 'APIKEY', org_id: 'org-c', created_at: '2026-01-01T00:00:00.000Z' },
      }),
    );
    expect(await keys.findApiKeyByHash('legacy')).toMatchObject({ orgId: 'org-c', scope: 'manage', id: '' });
    expect(await keys.listApiKeys('org-c')).toEqual([]);
  });
});

describe('DynamoDirectoryStore tokens and accounts', () => {
  it('stores the previous token of a rotation and clears it, keeps endpoint ids, deletes accounts', async () => {
    const org = { id: 'org-t', name: 'T', webhookToken: 'whsec_a', createdAt: '2026-11-22T12:00:00.000Z' };
    await directory.createOrganization(org);
    const previous = { token: 'whsec_a', expiresAt: '2026-11-23T12:00:00.000Z' };
    expect(await directory.setWebhookToken(org.id, 'whsec_b', previous)).toBe(true);
    expect(await directory.getOrganization(org.id)).toMatchObject({
      webhookToken: 'whsec_b',
      previousWebhookToken: previous,
    });
    expect(await directory.setWebhookToken(org.id, 'whsec_c')).toBe(true);
    expect((await directory.getOrganization(org.id))?.previousWebhookToken).toBeUndefined();
    expect(await directory.setWebhookToken('missing', 'whsec_d')).toBe(false);

    const now = '2026-11-22T12:00:00.000Z';
    const iban = 'DE89370400440532013000';
    await directory.putAccount({ iban, orgId: org.id, updatedAt: now });
    // The endpoint id given at creation stays; an account from before ids takes one at its next write.
    await directory.putAccount({
      iban,
      orgId: org.id,
      endpointId: 'ep_000000000001',
      updatedAt: now,
    });
    const kept = await directory.putAccount({
      iban,
      orgId: org.id,
      endpointId: 'ep_000000000002',
      updatedAt: now,
    });
    expect(kept.endpointId).toBe('ep_000000000001');
    await resources.documents.send(
      new UpdateCommand({
        TableName: resources.tableName,
        Key: { pk: `ACCOUNT#${iban}`, sk: 'ACCOUNT' },
        UpdateExpression: 'REMOVE endpoint_id',
      }),
    );
    expect((await directory.getAccount(iban))?.endpointId).toBeUndefined();
    const health = new DynamoEndpointHealthStore(resources.documents, resources.tableName);
    const given = await health.endpointId(iban, org.id);
    expect(given).toMatch(ENDPOINT_ID_PATTERN);
    expect(await health.endpointId(iban, org.id)).toBe(given);
    expect(await health.endpointId(iban, 'another-org')).toBeUndefined();
    expect((await directory.getAccount(iban))?.endpointId).toBe(given);
    const tombstone = { iban, orgId: org.id, deletedAt: now };
    expect(await directory.deleteAccount(tombstone)).toMatchObject({ iban, orgId: org.id });
    expect(await directory.deleteAccount(tombstone)).toBeUndefined();
    expect(await directory.listAccounts(org.id, { page: 1, perPage: 10 })).toEqual({
      accounts: [],
      hasMore: false,
    });
  });
});
