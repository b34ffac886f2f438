/**
 * API keys and organization tokens in DynamoDB Local: keys found by hash, listed and revoked by id
 * through the `by-org` index (and only within their organization), keys issued before ids and scopes
 * read as `manage` keys, and a rotation's previous token stored and cleared.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import type { ApiKey } from '#domain/model';
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
  it('stores the previous token of a rotation and clears it, and deletes accounts', async () => {
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
    await directory.putAccount({ iban, orgId: org.id, createdAt: now, updatedAt: now });
    const tombstone = { iban, orgId: org.id, deletedAt: now };
    expect(await directory.deleteAccount(tombstone)).toMatchObject({ iban, orgId: org.id });
    expect(await directory.deleteAccount(tombstone)).toBeUndefined();
    expect(await directory.listAccounts(org.id)).toEqual([]);
  });
});
