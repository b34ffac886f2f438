import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type CircuitOpening,
  type Disabling,
  type Enabling,
  type EndpointHealth,
  type EndpointHealthStore,
  HEALTHY,
  type HealthWrite,
  type SlotLease,
} from '#delivery/endpoint-health-port';
import type { EndpointAddress } from '#domain/endpoints/address';
import { newEndpointId } from '#domain/ids';
import type { CapacityListener } from './capacity';
import { HEALTH_ATTR as H, slotAttr, toEndpointHealth } from './health-items';
import { type HealthTable, OWNED, writeHealth } from './health-writes';
import { keys } from './items';

/** Every health attribute but the slots: what a recovery or an operator's enable removes. */
const RESET = [H.state, H.since, H.reason, H.failures, H.failingSince, H.openUntil, H.openSeconds].join(', ');
const NOT_DISABLED = `${OWNED} AND (attribute_not_exists(${H.state}) OR ${H.state} <> :disabled)`;

/**
 * {@link EndpointHealthStore} on the endpoints' items of the events table (the account item for an
 * account's default endpoint). Writes happen only on failures, slow answers, recoveries and state
 * changes; each is conditioned on the organization's live endpoint (as `account-marks.ts`) and returns
 * the item's health after it.
 */
export class DynamoEndpointHealthStore implements EndpointHealthStore {
  private readonly table: HealthTable;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly onCapacity?: CapacityListener,
  ) {
    this.table = { client, tableName, count: (units) => this.count(units) };
  }

  async recordAttempt(
    endpoint: EndpointAddress,
    update: HealthWrite,
    lease?: SlotLease,
  ): Promise<EndpointHealth | undefined> {
    const release = lease ? ` REMOVE ${slotAttr(lease.slot)}` : '';
    if (update.kind === 'disable') return this.disable(endpoint, update, lease);
    if (update.kind === 'failure') {
      // The count is added atomically: consumers failing at once all count, whatever they had cached.
      const written = await writeHealth(
        this.table,
        {
          UpdateExpression: [
            `SET ${H.state} = if_not_exists(${H.state}, :degraded), ${H.since} = if_not_exists(${H.since}, :at)`,
            `, ${H.reason} = if_not_exists(${H.reason}, :reason), ${H.failingSince} = if_not_exists(${H.failingSince}, :at)`,
            `, ${H.lastFailure} = :at, ${H.latency} = :ms ADD ${H.failures} :one${release}`,
          ].join(''),
          ConditionExpression: OWNED,
          ExpressionAttributeValues: {
            ':degraded': 'degraded',
            ':at': update.at,
            ':reason': update.reason,
            ':ms': update.latencyMs,
            ':one': 1,
          },
        },
        endpoint,
      );
      return written.health;
    }
    // A success that leaves the endpoint degraded (slow) changes no recovery; one that makes it healthy is one.
    const degraded = update.state === 'degraded';
    const set = degraded
      ? `SET ${H.state} = :degraded, ${H.since} = if_not_exists(${H.since}, :at), ${H.reason} = :reason`
      : `SET ${H.recoveredAt} = :at`;
    const remove = degraded ? [H.failures, H.failingSince, H.openUntil, H.openSeconds].join(', ') : RESET;
    const written = await writeHealth(
      this.table,
      {
        UpdateExpression: `${set}, ${H.latency} = :ms REMOVE ${remove}${lease ? `, ${slotAttr(lease.slot)}` : ''}`,
        // An endpoint an operator or a 410 disabled stays disabled, whatever answered meanwhile.
        ConditionExpression: NOT_DISABLED,
        ExpressionAttributeValues: {
          ':at': update.at,
          ':ms': update.latencyMs,
          ':disabled': 'disabled',
          ...(degraded ? { ':degraded': 'degraded', ':reason': update.reason } : {}),
        },
      },
      endpoint,
    );
    // Refused on a disabled endpoint of ours: the slot is still ours to free.
    if (!written.ok && written.health && lease) await this.releaseSlot(endpoint, lease);
    return written.health;
  }

  async openCircuit(
    endpoint: EndpointAddress,
    { until, seconds, reason }: CircuitOpening,
  ): Promise<EndpointHealth | undefined> {
    const written = await writeHealth(
      this.table,
      {
        UpdateExpression: `SET ${H.state} = :degraded, ${H.openUntil} = :until, ${H.openSeconds} = :seconds, ${H.reason} = :reason`,
        ConditionExpression: `${NOT_DISABLED} AND (attribute_not_exists(${H.openUntil}) OR ${H.openUntil} < :until)`,
        ExpressionAttributeValues: {
          ':degraded': 'degraded',
          ':until': until,
          ':seconds': seconds,
          ':reason': reason,
          ':disabled': 'disabled',
        },
      },
      endpoint,
    );
    return written.health;
  }

  async disable(
    endpoint: EndpointAddress,
    { at, reason, noticed }: Disabling,
    lease?: SlotLease,
  ): Promise<EndpointHealth | undefined> {
    const mark = noticed === undefined ? '' : `, ${H.noticed} = :noticed`;
    const written = await writeHealth(
      this.table,
      {
        UpdateExpression: `SET ${H.state} = :disabled, ${H.since} = :at, ${H.reason} = :reason${mark} REMOVE ${H.openUntil}, ${H.openSeconds}${lease ? `, ${slotAttr(lease.slot)}` : ''}`,
        // Disabled once: a second disabling (two 410s at once) keeps the first's time and reason, which
        // every observer then reads alike (the disabled notice's id is made of it).
        ConditionExpression: NOT_DISABLED,
        ExpressionAttributeValues: {
          ':disabled': 'disabled',
          ':at': at,
          ':reason': reason,
          ...(noticed === undefined ? {} : { ':noticed': noticed }),
        },
      },
      endpoint,
    );
    if (!written.ok && written.health && lease) await this.releaseSlot(endpoint, lease);
    return written.health;
  }

  async takeSlot(endpoint: EndpointAddress, slot: number, until: number, now: number) {
    const attr = slotAttr(slot);
    const written = await writeHealth(
      this.table,
      {
        UpdateExpression: `SET ${attr} = :until`,
        ConditionExpression: `${NOT_DISABLED} AND (attribute_not_exists(${attr}) OR ${attr} < :now)`,
        ExpressionAttributeValues: { ':until': until, ':now': now, ':disabled': 'disabled' },
      },
      endpoint,
    );
    return { taken: written.ok, health: written.health };
  }

  async releaseSlot(endpoint: EndpointAddress, lease: SlotLease): Promise<void> {
    const attr = slotAttr(lease.slot);
    await writeHealth(
      this.table,
      {
        UpdateExpression: `REMOVE ${attr}`,
        // Only our own lease: an expired one may belong to another consumer by now.
        ConditionExpression: `${OWNED} AND ${attr} = :until`,
        ExpressionAttributeValues: { ':until': lease.until },
      },
      endpoint,
    );
  }

  async markNoticed(
    endpoint: EndpointAddress,
    from: string | undefined,
    to: string | undefined,
  ): Promise<void> {
    // Moved only from what the caller read: a mark never goes back to a level another consumer passed.
    const expected = from === undefined ? `attribute_not_exists(${H.noticed})` : `${H.noticed} = :from`;
    await writeHealth(
      this.table,
      {
        UpdateExpression: to === undefined ? `REMOVE ${H.noticed}` : `SET ${H.noticed} = :to`,
        ConditionExpression: `${OWNED} AND ${expected}`,
        ExpressionAttributeValues: {
          ...(from === undefined ? {} : { ':from': from }),
          ...(to === undefined ? {} : { ':to': to }),
        },
      },
      endpoint,
    );
  }

  async markCertificateNoticed(endpoint: EndpointAddress, expiresAt: string): Promise<void> {
    await writeHealth(
      this.table,
      {
        UpdateExpression: `SET ${H.certificateNoticed} = :expires`,
        ConditionExpression: OWNED,
        ExpressionAttributeValues: { ':expires': expiresAt },
      },
      endpoint,
    );
  }

  async enable(endpoint: EndpointAddress, at: string): Promise<Enabling | undefined> {
    const id = endpoint.extra ?? newEndpointId();
    // The account's default endpoint from before endpoint ids gets one now, as `endpointId` gives it.
    const named = endpoint.extra === undefined ? ', endpoint_id = if_not_exists(endpoint_id, :id)' : '';
    const written = await writeHealth(
      this.table,
      {
        UpdateExpression: `SET ${H.since} = :at, ${H.reason} = :reason${named} REMOVE ${[H.state, H.failures, H.failingSince, H.openUntil, H.openSeconds, H.noticed].join(', ')}`,
        ConditionExpression: OWNED,
        ExpressionAttributeValues: {
          ':at': at,
          ':reason': 'enabled by an operator',
          ...(named === '' ? {} : { ':id': id }),
        },
      },
      endpoint,
      'ALL_OLD',
    );
    if (!written.ok || written.item === undefined) return undefined;
    const stored = written.item.endpoint_id;
    return {
      previous: written.health ?? HEALTHY,
      endpointId: endpoint.extra ?? (typeof stored === 'string' ? stored : id),
    };
  }

  async endpointId(iban: string, orgId: string): Promise<string | undefined> {
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.account(iban),
          // An account from before endpoint ids gets one at this first write; any other keeps its own.
          UpdateExpression: 'SET endpoint_id = if_not_exists(endpoint_id, :id)',
          ConditionExpression: OWNED,
          ExpressionAttributeValues: { ':id': newEndpointId(), ':org': orgId },
          ReturnValues: 'ALL_NEW',
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      this.count(out.ConsumedCapacity?.CapacityUnits);
      return String(out.Attributes?.endpoint_id);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      this.count(1);
      return undefined;
    }
  }

  /**
   * The health of the organization's operational webhook (eventually consistent is not enough: a batch
   * decides its circuit from it, as from an account's): undefined when nothing was ever written about it.
   */
  async operationalHealth(orgId: string): Promise<EndpointHealth | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.endpointAt({ iban: '', orgId, operational: true }),
        ConsistentRead: true,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    if (this.onCapacity && out.ConsumedCapacity?.CapacityUnits !== undefined) {
      this.onCapacity('GetItem (operational health)', out.ConsumedCapacity.CapacityUnits);
    }
    return out.Item === undefined ? undefined : toEndpointHealth(out.Item);
  }

  private count(units: number | undefined): void {
    if (this.onCapacity && units !== undefined) this.onCapacity('UpdateItem', units);
  }
}
