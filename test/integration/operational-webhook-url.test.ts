/**
 * The organization's operational webhook URL on DynamoDB Local (issue 33): `ops_webhook_url` is set and
 * removed on the organization item by an UpdateItem that changes nothing else (a concurrent token rotation
 * stays), and never creates an organization.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointHealthStore } from '#adapters/dynamodb/endpoint-health-store';
import { HEALTHY } from '#delivery/endpoint-health-port';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let directory: DynamoDirectoryStore;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'opsurl' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName);
});

afterAll(async () => {
  await resources?.destroy();
});

/** The organization item as stored, undefined when there is none. */
async function stored(orgId: string): Promise<Record<string, unknown> | undefined> {
  const out = await resources.documents.send(
    new GetCommand({
      TableName: resources.tableName,
      Key: { pk: `ORG#${orgId}`, sk: 'ORG' },
      ConsistentRead: true,
    }),
  );
  return out.Item;
}

describe('DynamoDirectoryStore.setOpsWebhookUrl', () => {
  it('sets and removes ops_webhook_url alone, beside a concurrent token rotation, on existing organizations only', async () => {
    const org = {
      id: 'org-ops',
      name: 'Ops',
      webhookToken: 'whsec_a',
      createdAt: '2026-11-22T12:00:00.000Z',
    };
    await directory.createOrganization(org);
    expect(await directory.setSignatureSchemes(org.id, ['v1'])).toBe(true);
    const before = await stored(org.id);

    const [set, rotated] = await Promise.all([
      directory.setOpsWebhookUrl(org.id, 'https://ops.example.com/herald'),
      directory.setWebhookToken(org.id, 'whsec_b'),
    ]);
    expect([set, rotated]).toEqual([true, true]);
    expect(await stored(org.id)).toEqual({
      ...before,
      webhook_token: 'whsec_b',
      ops_webhook_url: 'https://ops.example.com/herald',
    });
    expect(await directory.getOrganization(org.id)).toMatchObject({
      webhookToken: 'whsec_b',
      signatureSchemes: ['v1'],
      opsWebhookUrl: 'https://ops.example.com/herald',
    });

    expect(await directory.setOpsWebhookUrl(org.id, null)).toBe(true);
    expect(await stored(org.id)).toEqual({ ...before, webhook_token: 'whsec_b' });
    expect((await directory.getOrganization(org.id))?.opsWebhookUrl).toBeUndefined();

    expect(await directory.setOpsWebhookUrl('org-missing', 'https://ops.example.com/')).toBe(false);
    expect(await stored('org-missing')).toBeUndefined();
  });
  it('resets the operational webhook’s health when the URL is set or removed, and creates none', async () => {
    const org = {
      id: 'org-ops-health',
      name: 'Ops',
      webhookToken: 'whsec_a',
      createdAt: '2026-11-22T12:00:00.000Z',
    };
    await directory.createOrganization(org);
    const health = new DynamoEndpointHealthStore(resources.documents, resources.tableName);
    const ops = { iban: '', orgId: org.id, operational: true as const };
    expect(await directory.setOpsWebhookUrl(org.id, 'https://old.example.com/ops')).toBe(true);
    expect(await health.operationalHealth(org.id)).toBeUndefined();
    const at = '2026-11-27T10:00:00.000Z';
    const failure = { kind: 'failure', at, reason: 'answered 503', latencyMs: 20 } as const;
    await health.recordAttempt(ops, failure);
    await health.recordAttempt(ops, failure);
    await health.openCircuit(ops, { until: Date.parse(at) + 60_000, seconds: 60, reason: 'failing' });
    expect(await health.operationalHealth(org.id)).toMatchObject({
      consecutiveFailures: 2,
      state: 'degraded',
    });

    expect(await directory.setOpsWebhookUrl(org.id, 'https://new.example.com/ops')).toBe(true);
    expect(await health.operationalHealth(org.id)).toEqual(HEALTHY);
    await health.recordAttempt(ops, failure);
    expect(await directory.setOpsWebhookUrl(org.id, null)).toBe(true);
    expect(await health.operationalHealth(org.id)).toEqual(HEALTHY);
  });
});
