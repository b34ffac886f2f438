/**
 * What an account's log holds and answers, the records its port (`EventLog`) and the delivery's
 * (`DeliveryLedger`, in `event-store-port.ts` and `delivery-ledger-port.ts`) speak in: an event as it is stored at its sequence, an
 * id's claim, a read of the log, its pages and its voids, the hot log's head and its tail, and the ticket a head
 * hands out. Re-exported by `ports.ts`.
 */
import type { EventRecord, EventRef } from './model';

/**
 * A new event as it is stored at its sequence in its account's log: before any attempt, pending or
 * (without a webhook URL) skipped, and not signed (every attempt signs itself).
 */
export type NewEvent = Pick<
  EventRecord,
  'id' | 'orgId' | 'account' | 'type' | 'typeVersion' | 'triggeredAt' | 'body' | 'ticketedAt'
> & {
  readonly sequence: number;
  readonly webhookStatus: 'pending' | 'skipped';
  /** Epoch seconds after which DynamoDB may delete the event; undefined keeps it forever. */
  readonly expiresAt?: number | undefined;
};

/**
 * The claim of an event id: the id's uniqueness, and where its event is (or is about to be) stored. Its
 * `owner` is the publish that holds it; another publish may take it over only after `claimedAt` +
 * `CLAIM_LEASE_MS` (a publisher that crashed between the claim and the event leaves an orphan).
 */
export interface IdClaim extends EventRef {
  /** The sequence the claim holds: a claim always names one, unlike an event stored before sequences. */
  readonly sequence: number;
  /** A random token of the publish holding the claim. */
  readonly owner: string;
  /** Epoch ms of the claim or its last move. */
  readonly claimedAt: number;
  /** Epoch seconds after which DynamoDB may delete the claim with its event; undefined keeps it. */
  readonly expiresAt?: number | undefined;
}

/** What claiming an id found. */
export type ClaimResult =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly existing: IdClaim }
  /** The id is an event stored before sequences (the old layout, which is its own claim). */
  | { readonly claimed: false; readonly legacy: EventRecord };

/** Result of storing an event at its sequence. */
export type InsertEventResult =
  | { readonly created: true; readonly event: EventRecord }
  /** Another item holds the sequence: an event (`occupant`, its id) or a void (no `occupant`). */
  | { readonly created: false; readonly occupant?: string | undefined };

/** What one read of an account's log may take. */
export interface LogRead {
  /** Events with a sequence above this one. */
  readonly afterSequence: number;
  /** At most this many events. */
  readonly limit: number;
  /**
   * Stop once the events taken hold this many bytes of webhook body (at least one event is always
   * taken): it bounds what the read costs and holds, whatever the payloads. (What an answer of them
   * weighs is measured where it is rendered.)
   */
  readonly maxBodyBytes?: number;
}

/**
 * What the order gate reads of an account's log: each event's delivery state and routing, no body, no
 * attempts. `endpointId`: the state is that endpoint's delivery's (a fanned-out event, as one endpoint's
 * order sees it), so an event sent again for it is sent to that endpoint.
 */
export type LogEntry = Pick<
  EventRecord,
  | 'id'
  | 'orgId'
  | 'account'
  | 'sequence'
  | 'webhookStatus'
  | 'leaseUntil'
  | 'nextAttemptAt'
  | 'ticketedAt'
  | 'routes'
> & { readonly endpointId?: string | undefined };

/** A closed sequence of an account's log: a void item, which no event holds and none ever will. */
export interface LogVoid {
  readonly sequence: number;
  /**
   * Epoch ms of the ticket that handed the sequence out, when its publish gave it back
   * (`LogHoles.voidSequence`); absent for a reader's void.
   */
  readonly ticketedAt?: number | undefined;
}

/** One read of an account's log, and where the next one goes on. */
export interface LogPage {
  /** Ascending by sequence. */
  readonly events: EventRecord[];
  /** The closed sequences of the read. */
  readonly voids: readonly LogVoid[];
  /**
   * More events may follow (the read stopped at its limit, its byte budget, or mid-log): read again
   * after `nextAfterSequence`. False only when the log holds nothing after the events returned.
   */
  readonly more: boolean;
  /** The last sequence returned (`afterSequence` when none). */
  readonly nextAfterSequence: number;
}

/** What the order gate's read of a log found: events with their delivery state, and the voids between. */
export interface LogWindow {
  /** Ascending by sequence. */
  readonly entries: LogEntry[];
  /** The closed sequences of the read. */
  readonly voids: readonly LogVoid[];
  /**
   * The read stopped before its limit (DynamoDB ends a Query's page at 1 MB processed, whatever the
   * projection): more items may follow its last one, and fewer items than the limit say nothing about
   * where the log ends.
   */
  readonly cut: boolean;
}

/**
 * The head of a hot account log: the item that hands out its sequences by tickets while publishes
 * contend (`use-cases/events/sequencing.ts`).
 */
export interface LogHead {
  /** The highest sequence handed out through the head. */
  readonly handedOut: number;
  /** Epoch ms of its last ticket. */
  readonly at: number;
}

/** What the end of an account's log shows: its head while hot, otherwise its highest sequence (0: none). */
export type LogTail = { readonly head: LogHead } | { readonly highest: number };

/** The sequences one ticket handed out, `first` to `last`, and its time (each event's `ticketedAt`). */
export interface Ticket {
  readonly first: number;
  readonly last: number;
  readonly at: number;
}
