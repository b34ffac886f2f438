import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PortalLink } from '#domain/model';
import type { PortalLinkStore } from '#domain/ports';
import { keys } from './items';

/**
 * {@link PortalLinkStore} on the events table: one `PORTAL#<token hash>` item per link. `expires_at` is
 * also the table's TTL attribute, so DynamoDB removes unused links when retention is on.
 */
export class DynamoPortalLinkStore implements PortalLinkStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createPortalLink(link: PortalLink): Promise<void> {
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.portalLink(link.tokenHash),
          org_id: link.orgId,
          scope: link.scope,
          expires_at: link.expiresAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async takePortalLink(tokenHash: string): Promise<PortalLink | undefined> {
    const out = await this.client.send(
      new DeleteCommand({
        TableName: this.tableName,
        Key: keys.portalLink(tokenHash),
        ReturnValues: 'ALL_OLD',
      }),
    );
    const item = out.Attributes;
    if (!item) return undefined;
    return {
      tokenHash,
      orgId: String(item.org_id),
      scope: item.scope === 'manage' ? 'manage' : 'read',
      expiresAt: Number(item.expires_at),
    };
  }
}
