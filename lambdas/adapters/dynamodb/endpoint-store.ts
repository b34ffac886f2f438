/**
 * {@link EndpointStore} on the events table: an account's extra endpoints are items of its partition
 * (`ACCOUNT#<IBAN>` / `ENDPOINT#<id>`), read with one Query; their material is `ENDPOINT#<IBAN>` /
 * `ENDPOINT#<id>`. The account item counts them (`endpoint_count`): an addition is one transaction of the
 * endpoint item, the count's increment conditioned on the limit, and the material, so the limit holds
 * under concurrent additions and the count never drifts from the items; a removal likewise.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#config/limits';
import { type Endpoint, tooManyEndpoints } from '#domain/endpoints/endpoint';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { EndpointStore, EndpointWrite, NewEndpoint, ReadOptions } from '#domain/ports';
import { transact } from './api-key-count';
import { type CapacityListener, capacityCounter } from './capacity';
import { endpointItem, toEndpoint } from './endpoint-items';
import { materialWrite } from './endpoint-secret-store';
import { DELETED_AT, isTombstone, keys } from './items';
import { storedSubscription } from './subscription-items';

/** Attribute of the account item: how many extra endpoints it has. */
export const ENDPOINT_COUNT = 'endpoint_count';

/** The creation of an item where none is, as an UpdateItem of every attribute but its key. */
function creation(tableName: string, item: Record<string, unknown>) {
  const { pk, sk, ...attributes } = item;
  const names = Object.keys(attributes);
  return {
    Update: {
      TableName: tableName,
      Key: { pk, sk },
      UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :a${i}`).join(', ')}`,
      ConditionExpression: 'attribute_not_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:a${i}`, attributes[name]])),
    },
  };
}

/** The organization's live account. */
const OWNED = `org_id = :org AND attribute_not_exists(${DELETED_AT})`;

/** {@link EndpointStore} on the single events table. */
export class DynamoEndpointStore implements EndpointStore {
  private readonly count: ReturnType<typeof capacityCounter>;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    onCapacity?: CapacityListener,
  ) {
    this.count = capacityCounter(onCapacity);
  }

  async listEndpoints(iban: string, orgId: string, options: ReadOptions = {}): Promise<Endpoint[]> {
    // At most MAX_ENDPOINTS_PER_ACCOUNT - 1 items of a few KB each: one page.
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.endpoints(iban) },
        ConsistentRead: options.consistent ?? false,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.count('Query (endpoints)', out.ConsumedCapacity?.CapacityUnits);
    return (out.Items ?? [])
      .filter((item) => item.org_id === orgId)
      .map(toEndpoint)
      .sort((a, b) => (a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? -1 : 1));
  }

  async addEndpoint(endpoint: NewEndpoint): Promise<Endpoint> {
    const { iban, orgId } = endpoint;
    const item = endpointItem(endpoint);
    const outcome = await transact(this.client, [
      // An update that creates the item (only where none is): the account writers update account items
      // and need no right to put whole ones.
      creation(this.tableName, item),
      {
        Update: {
          TableName: this.tableName,
          Key: keys.account(iban),
          UpdateExpression: `ADD ${ENDPOINT_COUNT} :one`,
          ConditionExpression: `${OWNED} AND (attribute_not_exists(${ENDPOINT_COUNT}) OR ${ENDPOINT_COUNT} < :most)`,
          ExpressionAttributeValues: { ':org': orgId, ':one': 1, ':most': MAX_ENDPOINTS_PER_ACCOUNT - 1 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      ...(endpoint.security
        ? [
            materialWrite(
              this.tableName,
              { iban, orgId, extra: endpoint.id },
              { ...endpoint.security, secrets: endpoint.security.material, version: 0 },
            ),
          ]
        : []),
    ]);
    if (outcome.written) return toEndpoint(item);
    const account = outcome.reasons[1];
    if (account?.code === 'ConditionalCheckFailed') {
      const old = account.old;
      if (!old || old.org_id !== orgId || isTombstone(old)) throw new NotFoundError(`No account ${iban}.`);
      throw tooManyEndpoints(iban);
    }
    // A new random id already taken, or material left at its key: nothing was written; a retry draws anew.
    throw new ConflictError(`The new endpoint of ${iban} could not be stored; send the request again.`);
  }

  async updateEndpoint(write: EndpointWrite): Promise<Endpoint | undefined> {
    const subscription = storedSubscription(write);
    const set: Record<string, unknown> = { ...subscription.set, updated_at: write.updatedAt };
    if (write.url !== undefined) set.webhook_url = write.url;
    if (write.deliveryOrder === 'ordered') set.delivery_order = 'ordered';
    // The order's start, in the write that makes it ordered (never a second write a crash could skip).
    if (write.deliveryOrder === 'ordered' && write.settledThrough !== undefined) {
      set.settled_through = write.settledThrough;
    }
    const remove = [
      ...subscription.remove,
      ...(write.deliveryOrder === 'concurrent' ? ['delivery_order'] : []),
    ];
    const names = Object.keys(set);
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.endpoint(write.iban, write.id),
          UpdateExpression: [
            `SET ${names.map((name) => `${name} = :${name}`).join(', ')}`,
            remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : '',
            // A write that makes it ordered starts a new order epoch (see `Account.orderEpoch`).
            write.deliveryOrder === 'ordered' ? ' ADD order_epoch :one' : '',
          ].join(''),
          ConditionExpression: 'org_id = :org',
          ExpressionAttributeValues: {
            ':org': write.orgId,
            ...Object.fromEntries(names.map((name) => [`:${name}`, set[name]])),
            ...(write.deliveryOrder === 'ordered' ? { ':one': 1 } : {}),
          },
          ReturnValues: 'ALL_NEW',
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.count('UpdateItem', out.ConsumedCapacity?.CapacityUnits);
      return toEndpoint(out.Attributes ?? {});
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  async removeEndpoint(iban: string, orgId: string, id: string): Promise<boolean> {
    const outcome = await transact(this.client, [
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.endpoint(iban, id),
          ConditionExpression: 'org_id = :org',
          ExpressionAttributeValues: { ':org': orgId },
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: keys.account(iban),
          UpdateExpression: `ADD ${ENDPOINT_COUNT} :less`,
          ConditionExpression: `${OWNED} AND ${ENDPOINT_COUNT} > :none`,
          ExpressionAttributeValues: { ':org': orgId, ':less': -1, ':none': 0 },
        },
      },
      // The material goes with its endpoint (the key names the endpoint's random id: it is no one else's).
      { Delete: { TableName: this.tableName, Key: keys.endpointSecrets({ iban, orgId, extra: id }) } },
    ]);
    return outcome.written;
  }

  async removeEndpoints(iban: string, orgId: string): Promise<void> {
    // The account is gone (a tombstone, without the count): each endpoint and its material, one by one.
    for (const endpoint of await this.listEndpoints(iban, orgId, { consistent: true })) {
      const id = endpoint.id ?? '';
      try {
        await this.client.send(
          new DeleteCommand({
            TableName: this.tableName,
            Key: keys.endpoint(iban, id),
            ConditionExpression: 'org_id = :org',
            ExpressionAttributeValues: { ':org': orgId },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.endpointSecrets({ iban, orgId, extra: id }),
        }),
      );
    }
  }
}
