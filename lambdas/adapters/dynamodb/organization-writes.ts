/**
 * The organization item's writes: its creation, the secrets and schemes its webhooks are signed with, and
 * its operational webhook URL (which also resets that webhook's health).
 * Bound into `DynamoDirectoryStore`; every update is conditional on the organization existing.
 */
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionally } from '#adapters/dynamodb/conditional-write';
import type { Organization, PreviousToken, SignatureScheme } from '#domain/model';
import type { PreviousSigningKey, SigningKey } from '#domain/signing/signing-keys';
import { KEY_COUNT } from './api-key-count';
import { HEALTH_ATTR as H } from './health-items';
import { keys, signingKeyItem } from './items';

/** Creates the organization item; fails when it exists. */
export async function createOrganization(
  client: DynamoDBDocumentClient,
  tableName: string,
  org: Organization,
): Promise<void> {
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.organization(org.id),
        org_id: org.id,
        name: org.name,
        webhook_token: org.webhookToken,
        ...(org.signingKey ? { signing_key: signingKeyItem(org.signingKey) } : {}),
        created_at: org.createdAt,
        // No key yet: its first key is counted without counting anything (see api-key-count.ts).
        [KEY_COUNT]: 0,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** See `DirectoryStore.setWebhookToken`. */
export function setWebhookToken(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  token: string,
  previous?: PreviousToken,
): Promise<boolean> {
  return updateOrganization(client, tableName, orgId, {
    UpdateExpression: previous
      ? 'SET webhook_token = :t, previous_webhook_token = :p, previous_token_expires_at = :e'
      : 'SET webhook_token = :t REMOVE previous_webhook_token, previous_token_expires_at',
    ExpressionAttributeValues: {
      ':t': token,
      ...(previous ? { ':p': previous.token, ':e': previous.expiresAt } : {}),
    },
  });
}

/** See `DirectoryStore.setSigningKey`. */
export function setSigningKey(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  key: SigningKey,
  previous?: PreviousSigningKey,
): Promise<boolean> {
  return updateOrganization(client, tableName, orgId, {
    UpdateExpression: previous
      ? 'SET signing_key = :k, previous_signing_key = :p'
      : 'SET signing_key = :k REMOVE previous_signing_key',
    ExpressionAttributeValues: {
      ':k': signingKeyItem(key),
      ...(previous ? { ':p': signingKeyItem(previous) } : {}),
    },
  });
}

/** See `DirectoryStore.setSignatureSchemes`. */
export function setSignatureSchemes(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  schemes: readonly SignatureScheme[],
): Promise<boolean> {
  return updateOrganization(client, tableName, orgId, {
    UpdateExpression: 'SET signature_schemes = :s',
    ExpressionAttributeValues: { ':s': [...schemes] },
  });
}

/**
 * The operational webhook's health attributes a new URL starts without (its concurrency slots stay: they
 * are leases that run out, and an attempt under way releases its own).
 */
const OPS_HEALTH_RESET = [
  H.state,
  H.since,
  H.reason,
  H.failures,
  H.failingSince,
  H.recoveredAt,
  H.formerRecoveredAt,
  H.lastFailure,
  H.latency,
  H.openUntil,
  H.openSeconds,
].join(', ');

/** See `DirectoryStore.setOpsWebhookUrl`. */
export async function setOpsWebhookUrl(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  url: string | null,
): Promise<boolean> {
  const set = await updateOrganization(
    client,
    tableName,
    orgId,
    url === null
      ? { UpdateExpression: 'REMOVE ops_webhook_url' }
      : { UpdateExpression: 'SET ops_webhook_url = :u', ExpressionAttributeValues: { ':u': url } },
  );
  if (!set) return false;
  // The old URL's failures and open circuit are not the new one's. An UpdateItem (the right the writers
  // have on `OPS#` items already, not a DeleteItem that could remove notices), only on an item there.
  await conditionally(() =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.operationalHealth(orgId),
        UpdateExpression: `REMOVE ${OPS_HEALTH_RESET}`,
        ConditionExpression: 'org_id = :org',
        ExpressionAttributeValues: { ':org': orgId },
      }),
    ),
  );
  return true;
}

/** One update of an existing organization item; false when there is none. */
async function updateOrganization(
  client: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  update: { UpdateExpression: string; ExpressionAttributeValues?: Record<string, unknown> },
): Promise<boolean> {
  return conditionally(() =>
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.organization(orgId),
        ConditionExpression: 'attribute_exists(pk)',
        ...update,
      }),
    ),
  );
}
