import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { conditionally, type TableAccess } from '#adapters/dynamodb/conditional-write';
import { SETTINGS_ITEM } from '#config/storage';
import { ibanHoldsEventsError, ibanTakenError } from '#domain/account-ownership';
import type { Account, AccountTombstone, Organization } from '#domain/model';
import type { AccountPage, AccountPageQuery, AccountWrite, DirectoryStore, ReadOptions } from '#domain/ports';
import { advanceSettledThrough, raiseSequenceFloor, restartOrder, startOrder } from './account-marks';
import { batchGetItems } from './batch-get';
import { type CapacityListener, capacityCounter } from './capacity';
import { DELETED_AT, isTombstone, keys, toAccount, toAccountTombstone, toOrganization } from './items';
import {
  createOrganization,
  setOpsWebhookUrl,
  setSignatureSchemes,
  setSigningKey,
  setWebhookToken,
} from './organization-writes';
import { queryFirst } from './query-first';
import { storedSubscription } from './subscription-items';

/** {@link DirectoryStore} on the single events table. */
export class DynamoDirectoryStore implements DirectoryStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly onCapacity?: CapacityListener,
  ) {}

  async getOrganization(id: string, options: ReadOptions = {}): Promise<Organization | undefined> {
    const item = await this.get(keys.organization(id), options);
    return item ? toOrganization(item) : undefined;
  }

  readonly createOrganization: DirectoryStore['createOrganization'] = (org) =>
    createOrganization(this.client, this.tableName, org);
  readonly setWebhookToken: DirectoryStore['setWebhookToken'] = (orgId, token, previous) =>
    setWebhookToken(this.client, this.tableName, orgId, token, previous);
  readonly setSigningKey: DirectoryStore['setSigningKey'] = (orgId, key, previous) =>
    setSigningKey(this.client, this.tableName, orgId, key, previous);
  readonly setSignatureSchemes: DirectoryStore['setSignatureSchemes'] = (orgId, schemes) =>
    setSignatureSchemes(this.client, this.tableName, orgId, schemes);
  readonly setOpsWebhookUrl: DirectoryStore['setOpsWebhookUrl'] = (orgId, url) =>
    setOpsWebhookUrl(this.client, this.tableName, orgId, url);

  async getAccount(iban: string, options: ReadOptions = {}): Promise<Account | undefined> {
    const item = await this.get(keys.account(iban), options);
    return item && !isTombstone(item) ? toAccount(item) : undefined;
  }

  readonly advanceSettledThrough: DirectoryStore['advanceSettledThrough'] = (iban, orgId, move, extra) =>
    advanceSettledThrough(this.marks, { iban, orgId, extra }, move);
  readonly restartOrder: DirectoryStore['restartOrder'] = (iban, orgId, to, extra) =>
    restartOrder(this.marks, { iban, orgId, extra }, to);
  readonly startOrder: DirectoryStore['startOrder'] = (iban, orgId, through, extra) =>
    startOrder(this.marks, { iban, orgId, extra }, through);
  readonly raiseSequenceFloor: DirectoryStore['raiseSequenceFloor'] = (iban, orgId, floor) =>
    raiseSequenceFloor(this.marks, iban, orgId, floor);

  /** What the account log's marks on the account item (`account-marks.ts`) update through. */
  private get marks(): TableAccess {
    return { client: this.client, tableName: this.tableName, count: (op, units) => this.count(op, units) };
  }

  async getAccountTombstone(iban: string): Promise<AccountTombstone | undefined> {
    const item = await this.get(keys.account(iban));
    return item && isTombstone(item) ? toAccountTombstone(item) : undefined;
  }

  async putAccount(account: AccountWrite): Promise<Account> {
    // A URL sets it, null removes it, undefined leaves the stored one (an update names only what it sets).
    const url = account.webhookUrl;
    // Absent: the order stays as stored; `concurrent` removes the attribute (its default).
    const order = account.deliveryOrder === 'ordered' ? ', delivery_order = :order' : '';
    // A put that makes the account ordered starts a new order epoch (see `Account.orderEpoch`).
    const epoch = order === '' ? '' : ' ADD order_epoch :one';
    const orderRemoval = account.deliveryOrder === 'concurrent' ? ', delivery_order' : '';
    // The default endpoint's subscription: as the URL, each field set, removed (null) or left.
    const subscription = storedSubscription(account);
    const named = Object.keys(subscription.set);
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.account(account.iban),
          UpdateExpression: [
            'SET org_id = :org, iban = :iban, updated_at = :now, created_at = if_not_exists(created_at, :now)',
            ', gsi1pk = :gpk, gsi1sk = :iban',
            typeof url === 'string' ? ', webhook_url = :url' : '',
            account.endpointId === undefined ? '' : ', endpoint_id = if_not_exists(endpoint_id, :ep)',
            order,
            named.map((name) => `, ${name} = :${name}`).join(''),
            // Re-creating the organization's own deleted account revives its tombstone (which holds no URL).
            url === null ? ` REMOVE webhook_url, ${DELETED_AT}` : ` REMOVE ${DELETED_AT}`,
            orderRemoval,
            subscription.remove.map((name) => `, ${name}`).join(''),
            epoch,
          ].join(''),
          // An IBAN belongs to one organization, also while its deleted account's events remain: another
          // organization cannot take it over.
          ConditionExpression: 'attribute_not_exists(pk) OR org_id = :org',
          ExpressionAttributeValues: {
            ':org': account.orgId,
            ':iban': account.iban,
            ':now': account.updatedAt,
            ':gpk': keys.orgAccounts(account.orgId),
            ...(typeof url === 'string' ? { ':url': url } : {}),
            ...(account.endpointId === undefined ? {} : { ':ep': account.endpointId }),
            ...(order === '' ? {} : { ':order': 'ordered', ':one': 1 }),
            ...Object.fromEntries(named.map((name) => [`:${name}`, subscription.set[name]])),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return toAccount(out.Attributes ?? {});
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        const other = error.Item ? unmarshall(error.Item) : {};
        throw isTombstone(other) ? ibanHoldsEventsError(account.iban) : ibanTakenError(account.iban);
      }
      throw error;
    }
  }

  async deleteAccount(tombstone: AccountTombstone): Promise<Account | undefined> {
    const floor = tombstone.sequenceFloor ?? 0;
    let deleted: Account | undefined;
    try {
      // The whole item is replaced, health and index keys included: the tombstone leaves the
      // organization's account listing and keeps only what reserves the IBAN and its log's floor.
      const out = await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keys.account(tombstone.iban),
            iban: tombstone.iban,
            org_id: tombstone.orgId,
            [DELETED_AT]: tombstone.deletedAt,
            ...(floor > 0 ? { seq_floor: floor } : {}),
          },
          ConditionExpression: `org_id = :org AND attribute_not_exists(${DELETED_AT})`,
          ExpressionAttributeValues: { ':org': tombstone.orgId },
          ReturnValues: 'ALL_OLD',
        }),
      );
      deleted = out.Attributes ? toAccount(out.Attributes) : undefined;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
    // Retention raised the account's floor after the caller read it: the replaced item says so exactly.
    const replaced = deleted?.sequenceFloor ?? 0;
    if (replaced > floor) await this.raiseSequenceFloor(tombstone.iban, tombstone.orgId, replaced);
    return deleted;
  }

  removeAccountTombstone(iban: string, orgId: string): Promise<boolean> {
    return conditionally(() =>
      this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.account(iban),
          ConditionExpression: `attribute_exists(${DELETED_AT}) AND org_id = :org`,
          ExpressionAttributeValues: { ':org': orgId },
        }),
      ),
    );
  }

  async listAccounts(orgId: string, query: AccountPageQuery): Promise<AccountPage> {
    const offset = (query.page - 1) * query.perPage;
    // One entry past the page tells whether more follow; the depth bound keeps this at most 1,001.
    const wanted = offset + query.perPage + 1;
    const entries = await queryFirst(
      this.client,
      {
        TableName: this.tableName,
        IndexName: 'by-org',
        KeyConditionExpression: `gsi1pk = :pk${query.after === undefined ? '' : ' AND gsi1sk > :after'}`,
        ExpressionAttributeValues: {
          ':pk': keys.orgAccounts(orgId),
          ...(query.after === undefined ? {} : { ':after': query.after }),
        },
        ProjectionExpression: 'gsi1sk',
      },
      wanted,
      (units) => this.count('Query', units),
    );
    const ibans = entries.map((item) => String(item.gsi1sk));
    // The index projects no webhook URL, so the page's account items are read: at most 100, one batch.
    const pageIbans = ibans.slice(offset, offset + query.perPage);
    const { items, capacityUnits } =
      pageIbans.length === 0
        ? { items: [], capacityUnits: 0 }
        : await batchGetItems(this.client, this.tableName, pageIbans.map(keys.account));
    this.count('BatchGetItem', capacityUnits);
    // The index is eventually consistent: an account deleted since (a tombstone), or taken by another
    // organization since, is left out.
    const accounts = items
      .filter((item) => !isTombstone(item))
      .map(toAccount)
      .filter((account) => account.orgId === orgId)
      .sort((a, b) => (a.iban < b.iban ? -1 : a.iban > b.iban ? 1 : 0));
    return { accounts, hasMore: ibans.length > offset + query.perPage };
  }

  async getEventRetentionDays(): Promise<number | undefined> {
    const item = await this.get(SETTINGS_ITEM.key);
    const days = item?.[SETTINGS_ITEM.retentionDaysAttribute];
    return typeof days === 'number' ? days : undefined;
  }

  async getUsagePlanId(): Promise<string | undefined> {
    const item = await this.get(SETTINGS_ITEM.key);
    const id = item?.[SETTINGS_ITEM.usagePlanIdAttribute];
    return typeof id === 'string' ? id : undefined;
  }

  private async get(
    key: { pk: string; sk: string },
    options: ReadOptions = {},
  ): Promise<Record<string, unknown> | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: key,
        ConsistentRead: options.consistent ?? false,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.count('GetItem', out.ConsumedCapacity?.CapacityUnits);
    return out.Item;
  }

  private count(operation: string, units: number | undefined): void {
    capacityCounter(this.onCapacity)(operation, units);
  }
}
