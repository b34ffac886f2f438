/**
 * The event store's roles (`EventLog`, `DeliveryLedger`, `EventQueries`, `EventUpkeep`) on the single events
 * table, one class. This file holds the event's own reads and the writes of its delivery (lease,
 * routing, settle); the other parts are bound from their own files: the recorded attempt
 * (`record-attempt.ts`), the log's id claims (`claims.ts`),
 * events by sequence (`account-log.ts`) and numbering (`log-head.ts`: the head's tickets, the voids), the order
 * gate's read (`log-entries.ts`), the listing (`listing.ts`) and a delivery summary's attempts
 * (`recent-attempts.ts`), the sparse status indexes and new cycles (`status-indexes.ts`), a recovery's
 * walk (`recovery.ts`), the aggregate over routed endpoints (`route-settlements.ts`), the operator's chunks (`operator-chunks.ts`) and the upgrade of events stored
 * before logs (`legacy.ts`), reading through `index-reads.ts`.
 */
import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type CapacityListener, capacityCounter } from '#adapters/dynamodb/capacity';
import { conditionalUpdate, updateOrRefused } from '#adapters/dynamodb/conditional-write';
import { keys } from '#adapters/dynamodb/items';
import { STATUS_INDEXES } from '#config/storage';
import type { EventRecord, EventRef } from '#domain/model';
import type {
  DeliveryLedger,
  EventLog,
  EventQueries,
  EventReadOptions,
  EventUpkeep,
  LeaseClaim,
} from '#domain/ports';
import { insertEvent, latestSequence, readLog } from './account-log';
import { claimId, getClaim, moveClaim, readClaims } from './claims';
import { toEventRecord } from './event-items';
import { DEFAULT_BOUNDS, type EventTable, type ReadBounds } from './event-table';
import { legacyEvents, moveToLog } from './legacy';
import { listEvents } from './listing';
import { readLogEntries } from './log-entries';
import { leaveHot, readTail, takeTicket, takeTicketAbove, voidSequence } from './log-head';
import { eraseAccountEvents, pageEventIdsByStatus } from './operator-chunks';
import { recentAttempts } from './recent-attempts';
import { recordAttempt } from './record-attempt';
import { recoveryChunk } from './recovery';
import { reopenRoute, settleRoute } from './route-settlements';
import { indexStatus, nextFailedOrSkipped, startCycle } from './status-indexes';

/** Every role of the event store on the single events table. */
export class DynamoEventStore implements EventLog, DeliveryLedger, EventQueries, EventUpkeep {
  private readonly table: EventTable;

  /**
   * @param onCapacity - receives the capacity units of each request (`npm run bench`)
   * @param bounds - how much one listing may read; tests lower them
   */
  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    onCapacity?: CapacityListener,
    bounds: ReadBounds = DEFAULT_BOUNDS,
  ) {
    this.table = { client, tableName, count: capacityCounter(onCapacity), bounds };
  }

  // The account logs (`EventLog`).
  readonly latestSequence: EventLog['latestSequence'] = (orgId, account, options) =>
    latestSequence(this.table, orgId, account, options);
  readonly claimId: EventLog['claimId'] = (claim) => claimId(this.table, claim);
  readonly readClaim: EventLog['readClaim'] = async (id) => {
    const found = await getClaim(this.table, id, { consistent: true });
    if (found === undefined) return undefined;
    return 'legacy' in found
      ? { claimed: false, legacy: found.legacy }
      : { claimed: false, existing: found.claim };
  };
  readonly moveClaim: EventLog['moveClaim'] = (owner, claim) => moveClaim(this.table, owner, claim);
  readonly insertEvent: EventLog['insertEvent'] = (event) => insertEvent(this.table, event);
  readonly readLog: EventLog['readLog'] = (orgId, account, read) => readLog(this.table, orgId, account, read);
  readonly readClaims: EventLog['readClaims'] = (ids) => readClaims(this.table, ids);

  // The log's numbering (`EventLog`) and its holes closed (`LogHoles`, the delivery side's too).
  readonly readTail: EventLog['readTail'] = (orgId, account, options) =>
    readTail(this.table, orgId, account, options);
  readonly takeTicket: EventLog['takeTicket'] = (orgId, account, count, at) =>
    takeTicket(this.table, orgId, account, count, at);
  readonly takeTicketAbove: EventLog['takeTicketAbove'] = (orgId, account, count, at, above) =>
    takeTicketAbove(this.table, orgId, account, count, at, above);
  readonly leaveHot: EventLog['leaveHot'] = (orgId, account, head) =>
    leaveHot(this.table, orgId, account, head);
  readonly voidSequence: EventLog['voidSequence'] = (orgId, account, sequence, at, ticketedAt) =>
    voidSequence(this.table, orgId, account, sequence, at, ticketedAt);

  // The delivery state (`DeliveryLedger`), beyond this file's writes.
  readonly readLogEntries: DeliveryLedger['readLogEntries'] = (orgId, account, after, limit) =>
    readLogEntries(this.table, orgId, account, after, limit);
  readonly startCycle: DeliveryLedger['startCycle'] = (ref, orgId) => startCycle(this.table, ref, orgId);

  // The API's reads (`EventQueries`).
  readonly listEvents: EventQueries['listEvents'] = (request) => listEvents(this.table, request);
  readonly recentAttempts: EventQueries['recentAttempts'] = (orgId, account, since, limit) =>
    recentAttempts(this.table, orgId, account, since, limit);

  // The operator's walks (`EventUpkeep`).
  readonly nextFailedOrSkipped: EventUpkeep['nextFailedOrSkipped'] = (orgId, limit) =>
    nextFailedOrSkipped(this.table, orgId, limit);
  readonly recoveryChunk: EventUpkeep['recoveryChunk'] = (orgId, filter, limit, cursor) =>
    recoveryChunk(this.table, orgId, filter, limit, cursor);
  readonly indexStatus: EventUpkeep['indexStatus'] = (ref) => indexStatus(this.table, ref);
  readonly pageEventIdsByStatus: EventUpkeep['pageEventIdsByStatus'] = (orgId, statuses, cursor, until) =>
    pageEventIdsByStatus(this.table, orgId, statuses, cursor, until);
  readonly eraseAccountEvents: EventUpkeep['eraseAccountEvents'] = (orgId, account, cursor) =>
    eraseAccountEvents(this.table, orgId, account, cursor);
  readonly legacyEvents: EventUpkeep['legacyEvents'] = (orgId, limit, cursor) =>
    legacyEvents(this.table, orgId, limit, cursor);
  readonly moveToLog: EventUpkeep['moveToLog'] = (ref, sequence) => moveToLog(this.table, ref, sequence);

  async getEvent(id: string, options: EventReadOptions = {}): Promise<EventRecord | undefined> {
    const found = await getClaim(this.table, id, options);
    if (found === undefined || 'legacy' in found) return found?.legacy;
    const event = await this.readEvent(found.claim, options);
    // A claim whose event never came (a crashed publish) names no event; nor does a moved one's old place.
    return event?.id === id ? event : undefined;
  }

  async readEvent(ref: EventRef, options: EventReadOptions = {}): Promise<EventRecord | undefined> {
    const out = await this.table.client.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: keys.eventAt(ref),
        ConsistentRead: options.consistent ?? false,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    this.table.count('GetItem', out.ConsumedCapacity?.CapacityUnits);
    // An id's key may hold a claim, which is no event.
    return out.Item && out.Item.body !== undefined ? toEventRecord(out.Item) : undefined;
  }

  async takeLease(ref: EventRef, claim: LeaseClaim) {
    return conditionalUpdate(this.table, 'TakeLease', {
      TableName: this.table.tableName,
      Key: keys.eventAt(ref),
      UpdateExpression: 'SET lease_until = :until',
      ConditionExpression: [
        'webhook_status = :pending AND webhook_retries = :n',
        '(attribute_not_exists(lease_until) OR lease_until < :now)',
        // A duplicate message must not bring a scheduled retry forward.
        '(attribute_not_exists(next_attempt_at) OR next_attempt_at <= :due)',
      ].join(' AND '),
      ExpressionAttributeValues: {
        ':until': claim.untilEpochMs,
        ':pending': 'pending',
        ':n': claim.expectedRetries,
        ':now': claim.nowEpochMs,
        ':due': claim.dueByEpochMs,
      },
    });
  }

  readonly recordAttempt: DeliveryLedger['recordAttempt'] = (ref, attempt, status, nextAttemptAt) =>
    recordAttempt(this.table, ref, attempt, status, nextAttemptAt);

  async bringForward(ref: EventRef, orgId: string, nowEpochMs: number): Promise<boolean> {
    return conditionalUpdate(this.table, 'BringForward', {
      TableName: this.table.tableName,
      Key: keys.eventAt(ref),
      // A set `next_attempt_at` also makes the consumer lease a first attempt: the message this sends and
      // the one already queued must not both make it.
      UpdateExpression: 'SET next_attempt_at = :now',
      ConditionExpression:
        'gsi1pk = :org AND webhook_status = :pending AND (attribute_not_exists(lease_until) OR lease_until < :now)',
      ExpressionAttributeValues: {
        ':org': keys.eventIndexKey({ ...ref, orgId }),
        ':pending': 'pending',
        ':now': nowEpochMs,
      },
    });
  }

  async markWaiting(ref: EventRef, nowEpochMs: number): Promise<boolean> {
    return conditionalUpdate(this.table, 'MarkWaiting', {
      TableName: this.table.tableName,
      Key: keys.eventAt(ref),
      // A scheduled retry keeps its time; only an event never scheduled becomes due now.
      UpdateExpression: 'SET next_attempt_at = if_not_exists(next_attempt_at, :now)',
      ConditionExpression:
        'webhook_status = :pending AND (attribute_not_exists(lease_until) OR lease_until < :now)',
      ExpressionAttributeValues: { ':pending': 'pending', ':now': nowEpochMs },
    });
  }

  async recordRoutes(ref: EventRef, routes: readonly string[]): Promise<readonly string[] | undefined> {
    const { updated, item } = await updateOrRefused(this.table, 'RecordRoutes', {
      TableName: this.table.tableName,
      Key: keys.eventAt(ref),
      UpdateExpression: 'SET routes = :r',
      // The first decision wins: a concurrent one (another consumer, another subscription) reads it.
      // An attempt made meanwhile by a consumer that saw no need to route keeps the event unrouted.
      ConditionExpression:
        'attribute_exists(pk) AND attribute_not_exists(routes) AND webhook_retries = :zero',
      ExpressionAttributeValues: { ':r': [...routes], ':zero': 0 },
    });
    if (updated) return routes;
    // Gone (no item), routed before (the routing it holds), or attempted unrouted (none).
    const routed = item?.routes;
    return Array.isArray(routed) ? routed.map(String) : undefined;
  }

  readonly settleRoute: DeliveryLedger['settleRoute'] = (ref, endpointId, status, attempts) =>
    settleRoute(this.table, ref, endpointId, status, attempts);
  readonly reopenRoute: DeliveryLedger['reopenRoute'] = (ref, endpointId) =>
    reopenRoute(this.table, ref, endpointId);

  async settlePending(ref: EventRef, status: 'skipped' | 'failed'): Promise<boolean> {
    return conditionalUpdate(this.table, 'SettlePending', {
      TableName: this.table.tableName,
      Key: keys.eventAt(ref),
      UpdateExpression: `SET webhook_status = :s, ${STATUS_INDEXES[status].attribute} = gsi1pk REMOVE lease_until, next_attempt_at`,
      ConditionExpression: 'webhook_status = :pending',
      ExpressionAttributeValues: { ':s': status, ':pending': 'pending' },
    });
  }
}
