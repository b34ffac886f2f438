/**
 * What the publish protocol's use-case tests (`store-in-log*.test.ts`) share: a standing clock, the
 * in-memory store, instant recorded waits, and drafts and rival events of one account.
 */
import type { EventDraft, StoreInLogDeps } from '#use-cases/events/store-in-log';
import { FakeClock } from './fakes/clock';
import { InMemoryEventStore } from './fakes/event-store';

export const ORG = 'org-1';
export const IBAN = 'DE89370400440532013000';

/** The body built for a sequence: it names the sequence, so a test sees which one it was built for. */
export const body = (sequence: number) => `{"sequence":${sequence}}`;

/** One test's clock, store and deps, and helpers bound to them. */
export interface StoreInLogFixture {
  readonly clock: FakeClock;
  readonly events: InMemoryEventStore;
  /** The waits `deps.sleep` was asked for, in order (it returns at once). */
  readonly sleeps: number[];
  readonly deps: StoreInLogDeps;
  /** The n-th event of the account, triggered now. */
  readonly draft: (n: number, overrides?: Partial<EventDraft>) => EventDraft;
  /** Another publisher's event, stored at `sequence` of the same log. */
  readonly rival: (n: number, sequence: number) => void;
  /** The in-memory store as the use-case's port, each method bound (so single methods can be replaced). */
  readonly bind: () => StoreInLogDeps['events'];
}

/** A fresh fixture (call it in `beforeEach`). */
export function storeInLogFixture(): StoreInLogFixture {
  const clock = new FakeClock();
  const events = new InMemoryEventStore();
  const sleeps: number[] = [];
  return {
    clock,
    events,
    sleeps,
    deps: {
      events,
      now: clock.now,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    },
    draft: (n, overrides = {}) => ({
      id: `0193a7c4-1d2e-7f00-8a00-${String(n).padStart(12, '0')}`,
      orgId: ORG,
      account: IBAN,
      type: 'credit_transfer_status_change',
      triggeredAt: clock.iso(),
      webhookStatus: 'pending',
      sequenceFloor: 0,
      ...overrides,
    }),
    rival: (n, sequence) => {
      events.seed({ id: `rival-${n}`, orgId: ORG, account: IBAN, sequence });
    },
    bind: () => ({
      latestSequence: (org, account) => events.latestSequence(org, account),
      readTail: (org, account, options) => events.readTail(org, account, options),
      takeTicket: (org, account, count, at) => events.takeTicket(org, account, count, at),
      takeTicketAbove: (org, account, count, at, above) =>
        events.takeTicketAbove(org, account, count, at, above),
      leaveHot: (org, account, head) => events.leaveHot(org, account, head),
      voidSequence: (org, account, sequence, at, ticketedAt) =>
        events.voidSequence(org, account, sequence, at, ticketedAt),
      claimId: (claim) => events.claimId(claim),
      readClaim: (id) => events.readClaim(id),
      readClaims: (ids) => events.readClaims(ids),
      moveClaim: (owner, claim) => events.moveClaim(owner, claim),
      insertEvent: (event) => events.insertEvent(event),
      readEvent: (ref) => events.readEvent(ref),
    }),
  };
}
