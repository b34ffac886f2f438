/**
 * How an endpoint's health is written: every write conditioned on the organization's live endpoint (or,
 * for the operational webhook's own health item, created by its first write), answering the health after
 * it, or the health that refused it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { EndpointHealth } from '#delivery/endpoint-health-port';
import type { EndpointAddress } from '#domain/endpoints/address';
import { toEndpointHealth } from './health-items';
import { DELETED_AT, isTombstone, keys } from './items';

type UpdateInput = ConstructorParameters<typeof UpdateCommand>[0];
/** A health write: its expressions, without the table and key {@link writeHealth} adds. */
export type Update = Omit<UpdateInput, 'TableName' | 'Key'>;

/** The table a health write goes to, and where its units are counted. */
export interface HealthTable {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly count: (units: number | undefined) => void;
}

/**
 * The organization's endpoint, not a tombstone: health is never written onto a deleted account, nor onto
 * the account of another organization that was given the IBAN while an attempt was under way, nor (an
 * extra endpoint's item being deleted with it) onto a removed endpoint.
 */
export const OWNED = `org_id = :org AND attribute_not_exists(${DELETED_AT})`;
/**
 * The operational webhook's health item is created by its first write (nothing else creates it), and
 * carries its organization from then on.
 */
const CREATED_OR_OWNED = `(attribute_not_exists(pk) OR org_id = :org)`;

/** A conditional write's result: the health after it, or before it when refused; none when not ours. */
export interface Written {
  readonly ok: boolean;
  /** Undefined when the IBAN is not the organization's live account (nothing was written). */
  readonly health: EndpointHealth | undefined;
  /** The item as the write returned it (after it, or before with `ALL_OLD`), when it was written. */
  readonly item?: Record<string, unknown>;
}

/**
 * A write conditioned on the organization's live endpoint (`:org`; an extra endpoint's item carries its
 * organization too, and is gone once removed); on a failed condition, the item's current health comes
 * back with the error, or none when the item is not the organization's endpoint.
 */
export async function writeHealth(
  table: HealthTable,
  given: Update,
  endpoint: EndpointAddress,
  returned: 'ALL_NEW' | 'ALL_OLD' = 'ALL_NEW',
): Promise<Written> {
  const { orgId } = endpoint;
  const input = endpoint.operational ? createdByFirstWrite(given) : given;
  try {
    const out = await table.client.send(
      new UpdateCommand({
        ...input,
        TableName: table.tableName,
        Key: keys.endpointAt(endpoint),
        ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':org': orgId },
        ReturnValues: returned,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    table.count(out.ConsumedCapacity?.CapacityUnits);
    const item = out.Attributes ?? {};
    return { ok: true, health: toEndpointHealth(item), item };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    table.count(1);
    const item = error.Item ? unmarshall(error.Item) : undefined;
    const ours = item !== undefined && item.org_id === orgId && !isTombstone(item);
    return { ok: false, health: ours ? toEndpointHealth(item) : undefined };
  }
}

/**
 * A write of the operational webhook's health item: its own item, which its first write creates, so the
 * condition that the endpoint is the organization's live one becomes "none yet, or the organization's",
 * and every write sets the organization (a write that only removes attributes sets it too; its condition
 * on what it removes keeps it from creating anything).
 */
function createdByFirstWrite(input: Update): Update {
  const update = input.UpdateExpression ?? '';
  return {
    ...input,
    UpdateExpression: update.startsWith('SET ')
      ? `SET org_id = :org, ${update.slice('SET '.length)}`
      : `SET org_id = :org ${update}`,
    ConditionExpression: input.ConditionExpression?.replace(OWNED, CREATED_OR_OWNED),
  };
}
