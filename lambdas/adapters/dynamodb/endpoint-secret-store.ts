import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EndpointSecrets, EndpointSecuritySummary } from '#domain/endpoint-security/endpoint-security';
import type { EndpointSecretStore } from '#domain/endpoint-security/ports';
import {
  ENDPOINT_SECURITY,
  endpointSecurityItem,
  MATERIAL_ATTRIBUTES,
  secretsItem,
  toEndpointSecrets,
} from './endpoint-secret-items';
import { DELETED_AT, keys } from './items';

/**
 * {@link EndpointSecretStore} on the events table: the material in `ENDPOINT#<iban>` (its own kind, so
 * the API readers, which may read accounts, cannot read it), the summary on the account item.
 */
export class DynamoEndpointSecretStore implements EndpointSecretStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getSecrets(
    iban: string,
    options: { consistent?: boolean } = {},
  ): Promise<EndpointSecrets | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.endpointSecrets(iban),
        ConsistentRead: options.consistent ?? false,
      }),
    );
    return out.Item ? toEndpointSecrets(out.Item) : undefined;
  }

  removeSecrets = async (iban: string, orgId: string): Promise<void> => {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.endpointSecrets(iban),
          ConditionExpression: 'org_id = :org',
          ExpressionAttributeValues: { ':org': orgId },
        }),
      );
    } catch (error) {
      // None, or another organization's: nothing of this organization to remove.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  };

  async saveSecurity(
    iban: string,
    orgId: string,
    summary: EndpointSecuritySummary,
    secrets: EndpointSecrets,
  ): Promise<boolean> {
    // Material first: an account whose summary names material always finds it. Material without a
    // summary (a failure between the two writes) is never read, and the next save replaces it.
    const material = secretsItem(secrets);
    const removed = MATERIAL_ATTRIBUTES.filter((name) => material[name] === undefined);
    const names = Object.keys(material);
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.endpointSecrets(iban),
          UpdateExpression: [
            `SET ${['org_id = :org', ...names.map((name) => `${name} = :${name}`)].join(', ')}`,
            removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : '',
          ].join(''),
          // An IBAN's material belongs to the organization that first stored it, like its account.
          ConditionExpression: 'attribute_not_exists(pk) OR org_id = :org',
          ExpressionAttributeValues: {
            ':org': orgId,
            ...Object.fromEntries(names.map((name) => [`:${name}`, material[name]])),
          },
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
    const stored = endpointSecurityItem(summary);
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.account(iban),
          UpdateExpression: stored ? `SET ${ENDPOINT_SECURITY} = :s` : `REMOVE ${ENDPOINT_SECURITY}`,
          ConditionExpression: `org_id = :org AND attribute_not_exists(${DELETED_AT})`,
          ExpressionAttributeValues: { ':org': orgId, ...(stored ? { ':s': stored } : {}) },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }
}
