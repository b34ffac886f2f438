import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { EndpointHealth } from '#domain/delivery/endpoint-health';
import { newEndpointId } from '#domain/ids';
import type { EndpointHealthStore, HealthWrite, SlotLease } from '#domain/ports';
import type { CapacityListener } from './capacity';
import { HEALTH_ATTR as H, slotAttr, toEndpointHealth } from './health-items';
import { DELETED_AT, keys } from './items';

type UpdateInput = ConstructorParameters<typeof UpdateCommand>[0];

/** Every health attribute but the slots: what a recovery or an operator's enable removes. */
const RESET = [H.state, H.since, H.reason, H.failures, H.failingSince, H.openUntil, H.openSeconds].join(', ');
/** An account, not a tombstone: health is never written onto a deleted account. */
const LIVE = `attribute_exists(pk) AND attribute_not_exists(${DELETED_AT})`;
const NOT_DISABLED = `${LIVE} AND (attribute_not_exists(${H.state}) OR ${H.state} <> :disabled)`;

/**
 * {@link EndpointHealthStore} on the account items of the events table. Writes happen only on failures,
 * slow answers, recoveries and state changes; each returns the item's health after it.
 */
export class DynamoEndpointHealthStore implements EndpointHealthStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly onCapacity?: CapacityListener,
  ) {}

  async recordAttempt(iban: string, update: HealthWrite, lease?: SlotLease): Promise<EndpointHealth> {
    const release = lease ? ` REMOVE ${slotAttr(lease.slot)}` : '';
    if (update.kind === 'disable') return this.disable(iban, update.at, update.reason, lease);
    if (update.kind === 'failure') {
      // The count is added atomically: consumers failing at once all count, whatever they had cached.
      return this.write(
        {
          UpdateExpression: [
            `SET ${H.state} = if_not_exists(${H.state}, :degraded), ${H.since} = if_not_exists(${H.since}, :at)`,
            `, ${H.reason} = if_not_exists(${H.reason}, :reason), ${H.failingSince} = if_not_exists(${H.failingSince}, :at)`,
            `, ${H.lastFailure} = :at, ${H.latency} = :ms ADD ${H.failures} :one${release}`,
          ].join(''),
          ConditionExpression: LIVE,
          ExpressionAttributeValues: {
            ':degraded': 'degraded',
            ':at': update.at,
            ':reason': update.reason,
            ':ms': update.latencyMs,
            ':one': 1,
          },
        },
        iban,
      );
    }
    const degraded = update.state === 'degraded';
    const set = degraded
      ? `SET ${H.state} = :degraded, ${H.since} = if_not_exists(${H.since}, :at), ${H.reason} = :reason, `
      : 'SET ';
    const remove = degraded ? [H.failures, H.failingSince, H.openUntil, H.openSeconds].join(', ') : RESET;
    const input: Omit<UpdateInput, 'TableName' | 'Key'> = {
      UpdateExpression: `${set}${H.lastSuccess} = :at, ${H.latency} = :ms REMOVE ${remove}${lease ? `, ${slotAttr(lease.slot)}` : ''}`,
      // An endpoint an operator or a 410 disabled stays disabled, whatever answered meanwhile.
      ConditionExpression: NOT_DISABLED,
      ExpressionAttributeValues: {
        ':at': update.at,
        ':ms': update.latencyMs,
        ':disabled': 'disabled',
        ...(degraded ? { ':degraded': 'degraded', ':reason': update.reason } : {}),
      },
    };
    const written = await this.tryWrite(input, iban);
    if (written.ok) return written.health;
    if (lease) await this.releaseSlot(iban, lease);
    return written.health;
  }

  async openCircuit(iban: string, until: number, seconds: number, reason: string): Promise<EndpointHealth> {
    const written = await this.tryWrite(
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
      iban,
    );
    return written.health;
  }

  async disable(iban: string, at: string, reason: string, lease?: SlotLease): Promise<EndpointHealth> {
    return this.write(
      {
        UpdateExpression: `SET ${H.state} = :disabled, ${H.since} = :at, ${H.reason} = :reason REMOVE ${H.openUntil}, ${H.openSeconds}${lease ? `, ${slotAttr(lease.slot)}` : ''}`,
        ConditionExpression: LIVE,
        ExpressionAttributeValues: { ':disabled': 'disabled', ':at': at, ':reason': reason },
      },
      iban,
    );
  }

  async takeSlot(iban: string, slot: number, until: number, now: number) {
    const attr = slotAttr(slot);
    const written = await this.tryWrite(
      {
        UpdateExpression: `SET ${attr} = :until`,
        ConditionExpression: `${NOT_DISABLED} AND (attribute_not_exists(${attr}) OR ${attr} < :now)`,
        ExpressionAttributeValues: { ':until': until, ':now': now, ':disabled': 'disabled' },
      },
      iban,
    );
    return { taken: written.ok, health: written.health };
  }

  async releaseSlot(iban: string, lease: SlotLease): Promise<void> {
    const attr = slotAttr(lease.slot);
    await this.tryWrite(
      {
        UpdateExpression: `REMOVE ${attr}`,
        // Only our own lease: an expired one may belong to another consumer by now.
        ConditionExpression: `${attr} = :until`,
        ExpressionAttributeValues: { ':until': lease.until },
      },
      iban,
    );
  }

  async enable(iban: string, orgId: string, at: string): Promise<boolean> {
    const written = await this.tryWrite(
      {
        UpdateExpression: `SET ${H.since} = :at, ${H.reason} = :reason REMOVE ${[H.state, H.failures, H.failingSince, H.openUntil, H.openSeconds].join(', ')}`,
        ConditionExpression: `org_id = :org AND attribute_not_exists(${DELETED_AT})`,
        ExpressionAttributeValues: { ':at': at, ':org': orgId, ':reason': 'enabled by an operator' },
      },
      iban,
    );
    return written.ok;
  }

  async endpointId(iban: string): Promise<string> {
    const out = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.account(iban),
        // An account from before endpoint ids gets one at this first write; any other keeps its own.
        UpdateExpression: 'SET endpoint_id = if_not_exists(endpoint_id, :id)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':id': newEndpointId() },
        ReturnValues: 'ALL_NEW',
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.count(out.ConsumedCapacity?.CapacityUnits);
    return String(out.Attributes?.endpoint_id);
  }

  private async write(input: Omit<UpdateInput, 'TableName' | 'Key'>, iban: string): Promise<EndpointHealth> {
    const out = await this.client.send(this.command(input, iban));
    this.count(out.ConsumedCapacity?.CapacityUnits);
    return toEndpointHealth(out.Attributes ?? {});
  }

  /** A conditional write; on a failed condition, the item's current health comes back with the error. */
  private async tryWrite(
    input: Omit<UpdateInput, 'TableName' | 'Key'>,
    iban: string,
  ): Promise<{ ok: boolean; health: EndpointHealth }> {
    try {
      return { ok: true, health: await this.write(input, iban) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      this.count(1);
      return { ok: false, health: toEndpointHealth(error.Item ? unmarshall(error.Item) : {}) };
    }
  }

  private command(input: Omit<UpdateInput, 'TableName' | 'Key'>, iban: string): UpdateCommand {
    return new UpdateCommand({
      ...input,
      TableName: this.tableName,
      Key: keys.account(iban),
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      ReturnConsumedCapacity: 'TOTAL',
    });
  }

  private count(units: number | undefined): void {
    if (this.onCapacity && units !== undefined) this.onCapacity('UpdateItem', units);
  }
}
