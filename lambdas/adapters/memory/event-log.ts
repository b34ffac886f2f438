/**
 * The in-memory account logs (`EventLog`) and the reads of one event every role shares (`EventReads`),
 * with the DynamoDB adapter's conditions: an id is claimed once (a seeded event without a sequence is an
 * old-layout event, its own claim), a sequence of a log holds one event or void (the heads and voids:
 * `log-numbering.ts`), a claim moves only for its owner, and a read by ref finds the event only at its
 * place.
 */
import type { EventRecord, EventRef } from '#domain/model';
import type {
  ClaimResult,
  EventLog,
  EventReads,
  IdClaim,
  InsertEventResult,
  LogPage,
  LogRead,
  NewEvent,
} from '#domain/ports';
import type { EventTable } from './event-table';
import { readLog } from './log-reads';

/** One event by its id or at its place. */
export class InMemoryEventReads implements EventReads {
  constructor(protected readonly table: EventTable) {}

  async getEvent(id: string): Promise<EventRecord | undefined> {
    const claim = this.table.claims.get(id);
    return claim === undefined ? this.table.events.get(id) : this.table.eventAt(claim);
  }

  async readEvent(ref: EventRef): Promise<EventRecord | undefined> {
    return this.table.eventAt(ref);
  }
}

/** The account logs in memory. */
export class InMemoryEventLog extends InMemoryEventReads implements EventLog {
  async latestSequence(orgId: string, account: string): Promise<number> {
    return this.table.numbering.latest(orgId, account);
  }

  readonly readTail: EventLog['readTail'] = async (orgId, account) =>
    this.table.numbering.tail(orgId, account);
  readonly takeTicket: EventLog['takeTicket'] = async (orgId, account, count, at) =>
    this.table.numbering.takeTicket(orgId, account, count, at);
  readonly takeTicketAbove: EventLog['takeTicketAbove'] = async (orgId, account, count, at, above) =>
    this.table.numbering.takeTicketAbove(orgId, account, count, at, above);
  readonly leaveHot: EventLog['leaveHot'] = async (orgId, account, head) =>
    this.table.numbering.leaveHot(orgId, account, head);
  readonly voidSequence: EventLog['voidSequence'] = async (orgId, account, sequence, at, ticketedAt) =>
    this.table.numbering.voidSequence(orgId, account, sequence, at, ticketedAt);

  async readClaims(ids: readonly string[]): Promise<Map<string, Exclude<ClaimResult, { claimed: true }>>> {
    return new Map(
      ids.flatMap((id) => [this.table.claimAt(id)].flatMap((found) => (found ? [[id, found]] : []))),
    );
  }

  async readClaim(id: string): Promise<Exclude<ClaimResult, { claimed: true }> | undefined> {
    return this.table.claimAt(id);
  }

  async claimId(claim: IdClaim): Promise<ClaimResult> {
    // Checked and written with no await between, as DynamoDB's conditional put is atomic.
    const existing = this.table.claimAt(claim.id);
    // The claim this one wrote (a write retried after its answer was lost) is its own, as in DynamoDB.
    if (existing && 'existing' in existing && existing.existing.owner === claim.owner)
      return { claimed: true };
    if (existing) return existing;
    this.table.writes.push('PutClaim');
    this.table.claims.set(claim.id, claim);
    return { claimed: true };
  }

  async moveClaim(owner: string, claim: IdClaim): Promise<boolean> {
    this.table.writes.push('MoveClaim');
    if (this.table.claims.get(claim.id)?.owner !== owner) return false;
    this.table.claims.set(claim.id, claim);
    return true;
  }

  async insertEvent(event: NewEvent): Promise<InsertEventResult> {
    this.table.writes.push('PutItem');
    const occupant = this.table.events.at(event.orgId, event.account, event.sequence);
    if (occupant) return { created: false, occupant: occupant.id };
    if (this.table.numbering.isVoid(event.orgId, event.account, event.sequence)) return { created: false };
    const record: EventRecord = { ...event, webhookRetries: 0, cycleBase: 0, cycles: 1, deliveries: [] };
    // Keyed by id, as the tests inspect them; a second event with an id is a bug the tests must see.
    if (this.table.events.has(event.id)) throw new Error(`fake: a second event with id ${event.id}`);
    this.table.events.set(event.id, record);
    this.table.expiresAt.set(event.id, event.expiresAt);
    return { created: true, event: record };
  }

  async readLog(orgId: string, account: string, read: LogRead): Promise<LogPage> {
    return readLog(this.table.events, this.table.numbering, orgId, account, read);
  }
}
