/**
 * An event id's claim when a publish finds it taken: the event already stored under the id (the
 * idempotent answer), a publish of the id still under way (wait for it), or an orphan whose publisher
 * crashed between its claim and its event (taken over once its lease ran out). And the end of a claim's
 * lease when its publish gives up, so the id's resend takes it over at once.
 */
import { CLAIM_LEASE_MS, PUBLISH_BUDGET_MS } from '#config/limits';
import { cappedDoubling } from '#domain/backoff';
import { BusyError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import type { ClaimResult, EventLog, IdClaim } from '#domain/ports';
import { nextSequence } from './next-sequence';

/** What resolving a claim needs. */
export interface ClaimDeps {
  readonly events: Pick<EventLog, 'readClaim' | 'moveClaim' | 'readEvent' | 'latestSequence'>;
  /** Epoch ms. */
  readonly now: () => number;
  /** Waits between looks at a claim under way; tests make it instant. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * A claim found taken: its publish's answer, or the claim this publish took over. `ticketedAt` (now) when
 * the taken-over claim keeps its sequence: that sequence may have come from a ticket, and an event stored
 * there must not look numbered without one, or a reader could take a missing sequence below it for final
 * (`domain/log-holes.ts`); a later time only makes readers wait longer for such a sequence.
 */
export type ResolvedClaim =
  | { readonly existing: EventRecord }
  | { readonly claim: IdClaim; readonly ticketedAt?: number | undefined };

/**
 * How long a duplicate waits for the publish that holds its id's claim (ms, summed waits between looks):
 * that publish may go on for up to {@link PUBLISH_BUDGET_MS}, and a duplicate that gave up sooner would
 * answer busy for an event about to be stored.
 */
const DUPLICATE_WAIT_MS = PUBLISH_BUDGET_MS + 1_000;

/** The wait before a duplicate's next look at the claim: 50 ms, doubling, at most 1 s. */
const lookWait = (look: number) => cappedDoubling(50, look, 1_000);

/**
 * What an existing claim means for this publish (`mine`: its id, log, owner and floor): the event stored
 * under the id, or the claim taken over (an orphan whose lease ran out). A taken-over claim keeps the
 * sequence it names when it is of this publish's log: the crashed publish's sequence is tried first, so
 * its hole is filled while it is still free; in another log the publish starts at that log's next.
 *
 * @throws BusyError when a concurrent publish of the id holds the claim for longer than it may run
 */
export async function resolveClaim(
  deps: ClaimDeps,
  found: Exclude<ClaimResult, { claimed: true }>,
  mine: Omit<IdClaim, 'sequence' | 'claimedAt'> & { readonly sequenceFloor: number },
): Promise<ResolvedClaim> {
  let current: Exclude<ClaimResult, { claimed: true }> | undefined = found;
  let waited = 0;
  for (let look = 0; waited < DUPLICATE_WAIT_MS; look++) {
    if (current === undefined) break;
    if ('legacy' in current) return { existing: current.legacy };
    const { existing } = current;
    const event = await deps.events.readEvent(existing, { consistent: true });
    if (event?.id === mine.id) return { existing: event };
    if (deps.now() - existing.claimedAt >= CLAIM_LEASE_MS) {
      const sameLog = existing.orgId === mine.orgId && existing.account === mine.account;
      const { sequenceFloor, ...claim } = mine;
      const taken: IdClaim = {
        ...claim,
        sequence: sameLog ? existing.sequence : await nextSequence(deps.events, mine, false),
        claimedAt: deps.now(),
      };
      if (await deps.events.moveClaim(existing.owner, taken)) {
        return sameLog ? { claim: taken, ticketedAt: taken.claimedAt } : { claim: taken };
      }
    } else {
      // A concurrent publish of this id holds the claim: its event comes within milliseconds, or within
      // its budget when its puts keep being refused or throttled.
      const wait = lookWait(look);
      await (deps.sleep ?? defaultSleep)(wait);
      waited += wait;
    }
    current = await deps.events.readClaim(mine.id);
  }
  throw new BusyError(
    `id: event ${mine.id} is being published by another request right now; send it again to get the stored event.`,
  );
}

/**
 * Ends the lease of a claim whose publish gives up (busy, or a failed write after the claim): the id's
 * resend then takes it over at once instead of waiting {@link CLAIM_LEASE_MS}. Best effort: the failure
 * of this write is returned (for the logs) and the resend waits out the lease.
 */
export async function endLease(deps: Pick<ClaimDeps, 'events' | 'now'>, claim: IdClaim): Promise<unknown> {
  return deps.events.moveClaim(claim.owner, { ...claim, claimedAt: deps.now() - CLAIM_LEASE_MS }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
