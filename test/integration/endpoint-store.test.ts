/**
 * An account's extra endpoints against DynamoDB Local: items of the account's partition read with one
 * Query, counted on the account item in the same transaction as each addition and removal (the limit
 * holds under concurrent additions, and the count never drifts from the items), changed field by field
 * (absent keeps, null removes), bound to the account's organization, and removed with their material.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { keys } from '#adapters/dynamodb/items';
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#config/limits';
import { ConflictError, NotFoundError } from '#domain/errors';
import { newEndpointId } from '#domain/ids';
import type { NewEndpoint } from '#domain/ports';
import { TenantSeeder } from '#local/tenant-seed';
import { type IsolatedResources, isolatedResources } from '../support/resources';

const FULL = 'DE89370400440532013000';
const OTHER = 'GB82WEST12345698765432';
let resources: IsolatedResources;
let directory: DynamoDirectoryStore;
let store: DynamoEndpointStore;
let orgA: string;
let orgB: string;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'endpoint-store' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName);
  store = new DynamoEndpointStore(resources.documents, resources.tableName);
  const seeder = new TenantSeeder(resources.documents, resources.tableName);
  orgA = (
    await seeder.tenant('A', [
      { iban: FULL, webhookUrl: 'http://127.0.0.1:9/a' },
      { iban: OTHER, webhookUrl: 'http://127.0.0.1:9/o' },
    ])
  ).orgId;
  orgB = (await seeder.tenant('B')).orgId;
});
afterAll(async () => {
  await resources?.destroy();
});

const endpoint = (iban: string, orgId: string, fields: Partial<NewEndpoint> = {}): NewEndpoint => ({
  iban,
  orgId,
  id: newEndpointId(),
  url: 'http://127.0.0.1:9/extra',
  createdAt: new Date().toISOString(),
  ...fields,
});

describe('extra endpoints in DynamoDB', () => {
  it('holds the limit under concurrent additions, counting exactly the items stored', async () => {
    const tries = Array.from({ length: MAX_ENDPOINTS_PER_ACCOUNT + 3 }, () =>
      store.addEndpoint(endpoint(FULL, orgA)),
    );
    const outcomes = await Promise.allSettled(tries);
    const added = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    // Transactions that collide are cancelled too: never more than the limit, each refusal a conflict.
    expect(added.length).toBeLessThanOrEqual(MAX_ENDPOINTS_PER_ACCOUNT - 1);
    for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(ConflictError);
    while (
      (await store.listEndpoints(FULL, orgA, { consistent: true })).length <
      MAX_ENDPOINTS_PER_ACCOUNT - 1
    ) {
      await store.addEndpoint(endpoint(FULL, orgA));
    }
    await expect(store.addEndpoint(endpoint(FULL, orgA))).rejects.toThrow(/10 endpoints/);
    const listed = await store.listEndpoints(FULL, orgA, { consistent: true });
    expect(listed).toHaveLength(MAX_ENDPOINTS_PER_ACCOUNT - 1);
    expect((await directory.getAccount(FULL, { consistent: true }))?.endpointCount).toBe(listed.length);
  });

  it("changes what a write names, keeps the rest, and refuses another organization's", async () => {
    const added = await store.addEndpoint(
      endpoint(OTHER, orgA, {
        eventTypes: ['credit_received'],
        filter: { amount: [{ numeric: ['>', '100.00'] }] } as NewEndpoint['filter'],
        description: 'Books',
      }),
    );
    const id = added.id ?? '';
    const write = { iban: OTHER, orgId: orgA, id, updatedAt: new Date().toISOString() };
    const ordered = await store.updateEndpoint({ ...write, description: null, deliveryOrder: 'ordered' });
    expect(ordered).toMatchObject({
      eventTypes: ['credit_received'],
      filter: { amount: [{ numeric: ['>', '100.00'] }] },
      deliveryOrder: 'ordered',
      orderEpoch: 1,
    });
    expect(ordered?.description).toBeUndefined();
    expect(
      await store.updateEndpoint({ ...write, orgId: orgB, url: 'http://127.0.0.1:9/evil' }),
    ).toBeUndefined();
    expect(await store.listEndpoints(OTHER, orgB)).toEqual([]);
    await expect(store.addEndpoint(endpoint(OTHER, orgB))).rejects.toThrow(NotFoundError);
    expect(await store.removeEndpoint(OTHER, orgB, id)).toBe(false);
    const [stored] = await store.listEndpoints(OTHER, orgA, { consistent: true });
    expect(stored?.url).toBe('http://127.0.0.1:9/extra');
  });

  it('removes an endpoint with its material, and uncounts it', async () => {
    const material: NewEndpoint['security'] = {
      summary: { payloadEncryption: { keyId: 'k1', bits: 2048 } },
      material: { payloadEncryptionKey: { kty: 'RSA', n: 'AQAB', e: 'AQAB' } },
    };
    const before = (await directory.getAccount(OTHER, { consistent: true }))?.endpointCount ?? 0;
    const added = await store.addEndpoint(endpoint(OTHER, orgA, { security: material }));
    const id = added.id ?? '';
    const secretsKey = keys.endpointSecrets({ iban: OTHER, orgId: orgA, extra: id });
    const held = async () =>
      (await resources.documents.send(new GetCommand({ TableName: resources.tableName, Key: secretsKey })))
        .Item;
    expect(await held()).toBeDefined();
    expect(await store.removeEndpoint(OTHER, orgA, id)).toBe(true);
    expect(await held()).toBeUndefined();
    expect((await directory.getAccount(OTHER, { consistent: true }))?.endpointCount ?? 0).toBe(before);
    expect(await store.removeEndpoint(OTHER, orgA, id)).toBe(false);
  });
});
