/**
 * The in-memory event store: every role of the port (`EventLog`, `DeliveryLedger`, `EventQueries`,
 * `EventUpkeep`) over one in-memory table, as `DynamoEventStore` is over the events table. Each role's
 * conditions are in its own file; this binds them and seeds events. Its table's maps and counters
 * (`events`, `claims`, `writes`, …) are public so that tests can arrange and inspect state, and each
 * method is a property a test may replace (the ledger's read of a log goes through this one's `readLog`).
 */
import type { EventRecord } from '#domain/model';
import type { DeliveryLedger, EventLog, EventQueries, EventUpkeep } from '#domain/ports';
import { InMemoryDeliveryLedger } from './delivery-ledger';
import { InMemoryEventLog } from './event-log';
import { InMemoryEventQueries } from './event-queries';
import { EventTable } from './event-table';
import { InMemoryEventUpkeep } from './event-upkeep';

/** Every role of the event store in memory, over one table. */
export class InMemoryEventStore
  extends EventTable
  implements EventLog, DeliveryLedger, EventQueries, EventUpkeep
{
  readonly log = new InMemoryEventLog(this);
  readonly ledger = new InMemoryDeliveryLedger(this, this);
  readonly queries = new InMemoryEventQueries(this);
  readonly upkeep = new InMemoryEventUpkeep(this);

  // One event, by its id or at its place.
  getEvent: EventLog['getEvent'] = (id) => this.log.getEvent(id);
  readEvent: EventLog['readEvent'] = (ref) => this.log.readEvent(ref);

  // The account logs.
  latestSequence: EventLog['latestSequence'] = (orgId, account) => this.log.latestSequence(orgId, account);
  readClaim: EventLog['readClaim'] = (id) => this.log.readClaim(id);
  claimId: EventLog['claimId'] = (claim) => this.log.claimId(claim);
  moveClaim: EventLog['moveClaim'] = (owner, claim) => this.log.moveClaim(owner, claim);
  insertEvent: EventLog['insertEvent'] = (event) => this.log.insertEvent(event);
  readLog: EventLog['readLog'] = (orgId, account, read) => this.log.readLog(orgId, account, read);
  readClaims: EventLog['readClaims'] = (ids) => this.log.readClaims(ids);

  // The log's numbering (heads and voids: `log-numbering.ts`).
  readTail: EventLog['readTail'] = (orgId, account) => this.log.readTail(orgId, account);
  takeTicket: EventLog['takeTicket'] = (orgId, account, count, at) =>
    this.log.takeTicket(orgId, account, count, at);
  takeTicketAbove: EventLog['takeTicketAbove'] = (orgId, account, count, at, above) =>
    this.log.takeTicketAbove(orgId, account, count, at, above);
  leaveHot: EventLog['leaveHot'] = (orgId, account, head) => this.log.leaveHot(orgId, account, head);
  voidSequence: EventLog['voidSequence'] = (orgId, account, sequence, at, ticketedAt) =>
    this.log.voidSequence(orgId, account, sequence, at, ticketedAt);

  // The delivery state.
  readLogEntries: DeliveryLedger['readLogEntries'] = (orgId, account, after, limit) =>
    this.ledger.readLogEntries(orgId, account, after, limit);
  takeLease: DeliveryLedger['takeLease'] = (ref, claim) => this.ledger.takeLease(ref, claim);
  recordAttempt: DeliveryLedger['recordAttempt'] = (ref, attempt, status, nextAttemptAt) =>
    this.ledger.recordAttempt(ref, attempt, status, nextAttemptAt);
  bringForward: DeliveryLedger['bringForward'] = (ref, orgId, now) =>
    this.ledger.bringForward(ref, orgId, now);
  markWaiting: DeliveryLedger['markWaiting'] = (ref, now) => this.ledger.markWaiting(ref, now);
  recordRoutes: DeliveryLedger['recordRoutes'] = (ref, routes) => this.ledger.recordRoutes(ref, routes);
  settleRoute: DeliveryLedger['settleRoute'] = (ref, endpointId, status, attempts) =>
    this.ledger.settleRoute(ref, endpointId, status, attempts);
  reopenRoute: DeliveryLedger['reopenRoute'] = (ref, endpointId) => this.ledger.reopenRoute(ref, endpointId);
  settlePending: DeliveryLedger['settlePending'] = (ref, status) => this.ledger.settlePending(ref, status);
  startCycle: DeliveryLedger['startCycle'] = (ref, orgId) => this.ledger.startCycle(ref, orgId);

  // The API's reads.
  listEvents: EventQueries['listEvents'] = (request) => this.queries.listEvents(request);
  recentAttempts: EventQueries['recentAttempts'] = (orgId, account, since, limit) =>
    this.queries.recentAttempts(orgId, account, since, limit);

  // The operator's walks.
  nextFailedOrSkipped: EventUpkeep['nextFailedOrSkipped'] = (orgId, limit) =>
    this.upkeep.nextFailedOrSkipped(orgId, limit);
  recoveryChunk: EventUpkeep['recoveryChunk'] = (orgId, filter, limit, cursor) =>
    this.upkeep.recoveryChunk(orgId, filter, limit, cursor);
  pageEventIdsByStatus: EventUpkeep['pageEventIdsByStatus'] = (orgId, statuses, cursor, until) =>
    this.upkeep.pageEventIdsByStatus(orgId, statuses, cursor, until);
  eraseAccountEvents: EventUpkeep['eraseAccountEvents'] = (orgId, account, cursor) =>
    this.upkeep.eraseAccountEvents(orgId, account, cursor);
  indexStatus: EventUpkeep['indexStatus'] = (ref) => this.upkeep.indexStatus(ref);
  legacyEvents: EventUpkeep['legacyEvents'] = (orgId, limit, cursor) =>
    this.upkeep.legacyEvents(orgId, limit, cursor);
  moveToLog: EventUpkeep['moveToLog'] = (ref, sequence) => this.upkeep.moveToLog(ref, sequence);

  /** Stores a pending event with no attempts (or with the given fields), as if published. */
  seed(event: Partial<EventRecord> & { id: string }): EventRecord {
    const record: EventRecord = {
      orgId: 'org-1',
      account: 'DE89370400440532013000',
      type: 'credit_transfer_status_change',
      triggeredAt: '2026-11-20T09:00:00.000Z',
      body: JSON.stringify({ id: event.id, payload: {} }),
      webhookStatus: 'pending',
      webhookRetries: 0,
      cycleBase: 0,
      cycles: 1,
      deliveries: [],
      ...event,
    };
    this.events.set(event.id, record);
    return record;
  }
}
