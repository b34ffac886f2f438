import { type DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { EVENTS_TABLE } from '#config/storage';
import type { ApiKey } from '#domain/model';
import { type ApiKeyStore, MAX_API_KEYS_LISTED, MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { ensureKeyCount, KEY_COUNT, KEY_EXPIRY, type TransactOutcome, transact } from './api-key-count';
import { batchGetItems } from './batch-get';
import { type ItemKey, keys } from './items';

/**
 * {@link ApiKeyStore} on the events table. A key item lives under the hash of its secret (the
 * authorizer's one GetItem) and carries `gsi1pk = ORG#<org>#APIKEYS`, `gsi1sk = <key id>`, so the
 * organization's keys are listed and a key is found by id through the `by-org` index. Each put and
 * delete is one transaction with the organization's key count (`api-key-count.ts`).
 */
export class DynamoApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createApiKey(hash: string, key: ApiKey): Promise<boolean> {
    const put = {
      Put: {
        TableName: this.tableName,
        Item: {
          ...keys.apiKey(hash),
          gsi1pk: keys.orgApiKeys(key.orgId),
          gsi1sk: key.id,
          org_id: key.orgId,
          key_id: key.id,
          name: key.name,
          scope: key.scope,
          created_at: key.createdAt,
          ...(key.expiresAt === undefined ? {} : { [KEY_EXPIRY]: key.expiresAt }),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    const count = {
      Update: {
        TableName: this.tableName,
        Key: keys.organization(key.orgId),
        UpdateExpression: `SET ${KEY_COUNT} = ${KEY_COUNT} + :one`,
        // The limit is checked by the write that counts the key: no two creations can both pass it.
        ConditionExpression: `${KEY_COUNT} < :max`,
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_API_KEYS_PER_ORG },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    };
    const outcome = await this.counted(key.orgId, () => transact(this.client, [count, put]));
    if (outcome.written) return true;
    if (outcome.reasons[1]?.code === 'ConditionalCheckFailed') throw new Error('API key hash exists');
    return false;
  }

  async findApiKeyByHash(hash: string): Promise<ApiKey | undefined> {
    const out = await this.client.send(new GetCommand({ TableName: this.tableName, Key: keys.apiKey(hash) }));
    return out.Item ? toApiKey(out.Item) : undefined;
  }

  async listApiKeys(orgId: string): Promise<ApiKey[]> {
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'by-org',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.orgApiKeys(orgId) },
        Limit: MAX_API_KEYS_LISTED,
      }),
    );
    const itemKeys = (out.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
    if (itemKeys.length === 0) return [];
    const { items } = await batchGetItems(this.client, this.tableName, itemKeys);
    return items.map(toApiKey).sort((a, b) => a.id.localeCompare(b.id));
  }

  async revokeApiKey(orgId: string, keyId: string): Promise<boolean> {
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'by-org',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :id',
        ExpressionAttributeValues: { ':pk': keys.orgApiKeys(orgId), ':id': keyId },
      }),
    );
    const item = out.Items?.[0];
    return item ? this.delete({ pk: String(item.pk), sk: String(item.sk) }, orgId, keyId) : false;
  }

  deleteApiKey(hash: string, orgId: string, keyId: string): Promise<boolean> {
    return this.delete(keys.apiKey(hash), orgId, keyId);
  }

  /** Deletes the key item if it is `keyId` of `orgId`, with the count's decrement. */
  private async delete(key: ItemKey, orgId: string, keyId: string): Promise<boolean> {
    const outcome = await this.counted(orgId, () =>
      transact(this.client, [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.organization(orgId),
            UpdateExpression: `SET ${KEY_COUNT} = ${KEY_COUNT} - :one`,
            ConditionExpression: `attribute_exists(${KEY_COUNT})`,
            ExpressionAttributeValues: { ':one': 1 },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Delete: {
            TableName: this.tableName,
            Key: key,
            ConditionExpression: 'org_id = :org AND key_id = :id',
            ExpressionAttributeValues: { ':org': orgId, ':id': keyId },
          },
        },
      ]),
    );
    return outcome.written;
  }

  /**
   * Runs a transaction that needs the organization's key count; when the count does not exist yet (keys
   * from before it), counts them once and runs it again.
   */
  private async counted(orgId: string, run: () => Promise<TransactOutcome>): Promise<TransactOutcome> {
    const outcome = await run();
    const org = outcome.written ? undefined : outcome.reasons[0];
    if (org?.code !== 'ConditionalCheckFailed' || org.old === undefined || org.old[KEY_COUNT] !== undefined) {
      return outcome;
    }
    await ensureKeyCount(this.client, this.tableName, orgId);
    return run();
  }
}

/** Keys issued before keys had ids, scopes and names read as `manage` keys named `legacy`. */
function toApiKey(item: Record<string, unknown>): ApiKey {
  // Keys issued before the count kept their expiry in the table's TTL attribute.
  const expiresAt = item[KEY_EXPIRY] ?? item[EVENTS_TABLE.timeToLiveAttribute];
  return {
    id: typeof item.key_id === 'string' ? item.key_id : '',
    orgId: String(item.org_id),
    name: typeof item.name === 'string' ? item.name : 'legacy',
    scope: item.scope === 'read' ? 'read' : 'manage',
    createdAt: String(item.created_at),
    expiresAt: typeof expiresAt === 'number' ? expiresAt : undefined,
  };
}
