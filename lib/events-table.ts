import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { EVENTS_TABLE, type KeyAttribute } from '#config/storage';

/** Autoscaling range of one provisioned capacity dimension, in capacity units. */
export interface AutoscaledRange {
  readonly min: number;
  readonly max: number;
}

/**
 * How the events table pays for throughput.
 *
 * - `on-demand` (the default) bills per request and needs no planning. Optional caps bound the cost
 *   of a runaway client or loop: requests beyond them are throttled.
 * - `provisioned` bills per provisioned capacity unit and hour, whether used or not, with target
 *   tracking autoscaling between `min` and `max` (the `by-org` index gets the same range: every event
 *   write also writes it). A fully used capacity unit costs roughly 30 % of the same traffic on
 *   demand, so provisioned pays off only for steady traffic whose average stays above about 30 % of
 *   what is provisioned (at us-east-1 prices of 2026; the ratio has held across regions).
 *   Autoscaling reacts within minutes and scales down only a few times a day, so bursts (a clearing
 *   run that writes thousands of events at once, a redelivery wave) are throttled until it catches up;
 *   the handlers retry, but latency grows. Choose it once the traffic is known and flat.
 */
export type TableCapacity =
  | {
      readonly mode: 'on-demand';
      /** @default - no cap */
      readonly maxReadRequestUnits?: number;
      /** @default - no cap */
      readonly maxWriteRequestUnits?: number;
    }
  | {
      readonly mode: 'provisioned';
      readonly read: AutoscaledRange;
      readonly write: AutoscaledRange;
      /** Consumed/provisioned ratio autoscaling aims at, 20–90. @default 70 */
      readonly targetUtilizationPercent?: number;
    };

/** Properties of {@link EventsTable}. */
export interface EventsTableProps {
  /** Customer-managed key; without it the AWS-managed key `aws/dynamodb` encrypts the table. */
  readonly encryptionKey?: kms.IKey | undefined;
  /** @default { mode: 'on-demand' } */
  readonly capacity?: TableCapacity | undefined;
  /**
   * Whether DynamoDB deletes items whose `expires_at` has passed. Only the stack's event retention
   * turns it on, so switching retention off also stops deletions of items stamped before.
   */
  readonly expireItems: boolean;
}

const attribute = (key: KeyAttribute): dynamodb.Attribute => ({
  name: key.name,
  type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER,
});

/**
 * The single events table of `EVENTS_TABLE` (`lambdas/config/storage.ts`): organizations, API keys, accounts and events.
 * It holds the only copy of delivery history, so it is protected three ways: deletion protection,
 * RETAIN on stack deletion, and point-in-time recovery. A single-region `Table` rather than a
 * `TableV2`, which cannot take a customer-managed key in a region-agnostic stack.
 */
export class EventsTable extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: EventsTableProps) {
    super(scope, id);
    const capacity = props.capacity ?? { mode: 'on-demand' };
    const provisioned = capacity.mode === 'provisioned' ? capacity : undefined;
    const throughput = throughputOf(capacity);
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: attribute(EVENTS_TABLE.partitionKey),
      sortKey: attribute(EVENTS_TABLE.sortKey),
      stream: dynamodb.StreamViewType[EVENTS_TABLE.streamViewType],
      ...(props.expireItems ? { timeToLiveAttribute: EVENTS_TABLE.timeToLiveAttribute } : {}),
      billingMode: provisioned ? dynamodb.BillingMode.PROVISIONED : dynamodb.BillingMode.PAY_PER_REQUEST,
      ...throughput,
      ...(props.encryptionKey === undefined
        ? { encryption: dynamodb.TableEncryption.AWS_MANAGED }
        : { encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED, encryptionKey: props.encryptionKey }),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of EVENTS_TABLE.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
        projectionType: dynamodb.ProjectionType.INCLUDE,
        nonKeyAttributes: [...index.nonKeyAttributes],
        ...throughput,
      });
    }
    if (provisioned) this.autoscale(provisioned);
  }

  private autoscale(capacity: Extract<TableCapacity, { mode: 'provisioned' }>): void {
    const target = { targetUtilizationPercent: capacity.targetUtilizationPercent ?? 70 };
    const read = { minCapacity: capacity.read.min, maxCapacity: capacity.read.max };
    const write = { minCapacity: capacity.write.min, maxCapacity: capacity.write.max };
    this.table.autoScaleReadCapacity(read).scaleOnUtilization(target);
    this.table.autoScaleWriteCapacity(write).scaleOnUtilization(target);
    for (const index of EVENTS_TABLE.indexes) {
      this.table.autoScaleGlobalSecondaryIndexReadCapacity(index.name, read).scaleOnUtilization(target);
      this.table.autoScaleGlobalSecondaryIndexWriteCapacity(index.name, write).scaleOnUtilization(target);
    }
  }
}

/**
 * The throughput settings of the table and of each index: a provisioned table starts at the minimum (autoscaling
 * takes over from there); an on-demand one gets only the caps it was given.
 */
function throughputOf(
  capacity: TableCapacity,
): Pick<
  dynamodb.TableProps,
  'readCapacity' | 'writeCapacity' | 'maxReadRequestUnits' | 'maxWriteRequestUnits'
> {
  if (capacity.mode === 'provisioned') {
    return { readCapacity: capacity.read.min, writeCapacity: capacity.write.min };
  }
  const { maxReadRequestUnits, maxWriteRequestUnits } = capacity;
  return {
    ...(maxReadRequestUnits === undefined ? {} : { maxReadRequestUnits }),
    ...(maxWriteRequestUnits === undefined ? {} : { maxWriteRequestUnits }),
  };
}
