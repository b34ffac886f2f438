import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { ApiKey } from '#domain/model';
import { type ApiKeyStore, MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { batchGetItems } from './batch-get';
import { keys } from './items';

/**
 * {@link ApiKeyStore} on the events table. A key item lives under the hash of its secret (the
 * authorizer's one GetItem) and carries `gsi1pk = ORG#<org>#APIKEYS`, `gsi1sk = <key id>`, so the
 * organization's keys are listed and a key is found by id through the `by-org` index.
 */
export class DynamoApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createApiKey(hash: string, key: ApiKey): Promise<void> {
    await this.client.send(
      new PutCommand({
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
          ...(key.expiresAt === undefined ? {} : { expires_at: key.expiresAt }),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
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
        Limit: MAX_API_KEYS_PER_ORG,
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
    if (!item) return false;
    await this.client.send(
      new DeleteCommand({ TableName: this.tableName, Key: { pk: String(item.pk), sk: String(item.sk) } }),
    );
    return true;
  }
}

/** Keys issued before keys had ids, scopes and names read as `manage` keys named `legacy`. */
function toApiKey(item: Record<string, unknown>): ApiKey {
  return {
    id: typeof item.key_id === 'string' ? item.key_id : '',
    orgId: String(item.org_id),
    name: typeof item.name === 'string' ? item.name : 'legacy',
    scope: item.scope === 'read' ? 'read' : 'manage',
    createdAt: String(item.created_at),
    expiresAt: typeof item.expires_at === 'number' ? item.expires_at : undefined,
  };
}
