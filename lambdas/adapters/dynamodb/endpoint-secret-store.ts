import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { EndpointSecrets } from '#domain/endpoint-security/endpoint-security';
import type {
  EndpointSecretStore,
  EndpointSecuritySave,
  SaveOutcome,
  StoredEndpointSecurity,
} from '#domain/endpoint-security/ports';
import type { EndpointAddress } from '#domain/endpoints/address';
import { type TransactItems, transact } from './api-key-count';
import {
  ENDPOINT_SECURITY,
  endpointSecurityItem,
  MATERIAL_ATTRIBUTES,
  secretsItem,
  toEndpointSecrets,
  toEndpointSecurity,
} from './endpoint-secret-items';
import { DELETED_AT, keys } from './items';

/** The endpoint item's attributes beside the material: its summary, and the version saves advance. */
const SUMMARY = 'security_summary';
const VERSION = 'material_version';

/**
 * {@link EndpointSecretStore} on the events table: the material in `ENDPOINT#<iban>` (its own kind, so
 * the API readers, which may read accounts, cannot read it; sort key `ENDPOINT` for the default endpoint,
 * `ENDPOINT#<id>` for an extra one), the summary on the endpoint's item, both written in one transaction.
 */
export class DynamoEndpointSecretStore implements EndpointSecretStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getSecrets(
    endpoint: EndpointAddress,
    options: { consistent?: boolean } = {},
  ): Promise<EndpointSecrets | undefined> {
    const item = await this.item(endpoint, options.consistent ?? false);
    // An item another organization left behind (its account deleted, the IBAN taken over) is not this one's.
    return item && item.org_id === endpoint.orgId ? toEndpointSecrets(item) : undefined;
  }

  async readForUpdate(endpoint: EndpointAddress): Promise<StoredEndpointSecurity> {
    const item = await this.item(endpoint, true);
    if (!item || item.org_id !== endpoint.orgId) return { version: 0 };
    return {
      secrets: toEndpointSecrets(item),
      summary: item[SUMMARY] === undefined ? undefined : toEndpointSecurity(item[SUMMARY]),
      version: Number(item[VERSION] ?? 0),
    };
  }

  removeSecrets = async (iban: string, orgId: string): Promise<void> => {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.endpointSecrets({ iban, orgId }),
          ConditionExpression: 'org_id = :org',
          ExpressionAttributeValues: { ':org': orgId },
        }),
      );
    } catch (error) {
      // None, or another organization's: nothing of this organization to remove.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  };

  async saveSecurity(endpoint: EndpointAddress, save: EndpointSecuritySave): Promise<SaveOutcome> {
    const { orgId } = endpoint;
    const stored = endpointSecurityItem(save.summary);
    const outcome = await transact(this.client, [
      materialWrite(this.tableName, endpoint, save),
      {
        Update: {
          TableName: this.tableName,
          Key: keys.endpointAt(endpoint),
          UpdateExpression: stored ? `SET ${ENDPOINT_SECURITY} = :s` : `REMOVE ${ENDPOINT_SECURITY}`,
          ConditionExpression: `org_id = :org AND attribute_not_exists(${DELETED_AT})`,
          ExpressionAttributeValues: { ':org': orgId, ...(stored ? { ':s': stored } : {}) },
        },
      },
    ]);
    if (outcome.written) return 'saved';
    return outcome.reasons[1]?.code === 'ConditionalCheckFailed' ? 'not-found' : 'conflict';
  }

  private async item(
    endpoint: EndpointAddress,
    consistent: boolean,
  ): Promise<Record<string, unknown> | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.endpointSecrets(endpoint),
        ConsistentRead: consistent,
      }),
    );
    return out.Item;
  }
}

/**
 * The transaction item that writes an endpoint's material and its summary over `save.version`. Every
 * attribute is set or removed, so nothing of an earlier version stays. It may take over an item another
 * organization left behind (never read as this one's): the account's condition is what binds the IBAN to
 * the organization. UpdateItem, as the account writers' grants on `ENDPOINT#` items allow (it creates a
 * missing one).
 */
export function materialWrite(
  tableName: string,
  endpoint: EndpointAddress,
  save: EndpointSecuritySave,
): TransactItems[number] {
  const { orgId } = endpoint;
  const stored = endpointSecurityItem(save.summary);
  const versionHolds = save.version === 0 ? `attribute_not_exists(${VERSION})` : `${VERSION} = :expected`;
  const material = { ...secretsItem(save.secrets), ...(stored ? { [SUMMARY]: stored } : {}) };
  const removed = [...MATERIAL_ATTRIBUTES, SUMMARY].filter((name) => !(name in material));
  const names = Object.keys(material);
  return {
    Update: {
      TableName: tableName,
      Key: keys.endpointSecrets(endpoint),
      UpdateExpression: [
        `SET ${['org_id = :org', `${VERSION} = :next`, ...names.map((n) => `${n} = :${n}`)].join(', ')}`,
        removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : '',
      ].join(''),
      ConditionExpression: `attribute_not_exists(pk) OR org_id <> :org OR ${versionHolds}`,
      ExpressionAttributeValues: {
        ':org': orgId,
        ':next': save.version + 1,
        ...(save.version === 0 ? {} : { ':expected': save.version }),
        ...Object.fromEntries(names.map((n) => [`:${n}`, material[n as keyof typeof material]])),
      },
    },
  };
}
