/**
 * What storing events in an account's log (`store-in-log.ts`, `log-puts.ts`) takes and answers: its
 * dependencies, the events to store without their sequences, and what became of each.
 */
import type { EventRecord } from '#domain/model';
import type { EventLog, NewEvent } from '#domain/ports';
import type { ClaimDeps } from './id-claims';
import type { SequencingDeps } from './sequencing';

/** What storing in the log needs. */
export interface StoreInLogDeps extends SequencingDeps, ClaimDeps {
  readonly events: SequencingDeps['events'] &
    ClaimDeps['events'] &
    Pick<EventLog, 'claimId' | 'readClaims' | 'insertEvent'>;
  /** Epoch ms. */
  readonly now: () => number;
  /** The random token of each claim; tests fix it. */
  readonly newOwner?: () => string;
}

/** The event to store, without its sequence: the body is built for whichever sequence it gets. */
export type EventDraft = Omit<NewEvent, 'sequence' | 'body' | 'ticketedAt'> & {
  /** The account's sequence floor (`Account.sequenceFloor`): sequences continue above it. */
  readonly sequenceFloor: number;
};

/** One event to store: its draft, and its body for a sequence (the body carries the sequence). */
export interface DraftEntry {
  readonly draft: EventDraft;
  readonly body: (sequence: number) => string;
}

/** The stored event, or the one already stored under its id. */
export type StoreResult =
  | { readonly created: true; readonly event: EventRecord }
  | { readonly created: false; readonly existing: EventRecord };

/** What became of one entry of `storeAllInLog`: its result, or why it was not stored. */
export type StoreOutcome = StoreResult | { readonly error: unknown };
