/**
 * Storing a new event at the next sequence of its account's log, with its id claimed first: the protocol
 * of docs/design.md ("Publishing"). The claim makes the id unique whatever sequence the event ends at; the
 * event's conditional put at a sequence makes the sequence unique; a publish that loses a sequence moves
 * its claim to the next one and tries again. A duplicate publish of the same id finds the claim and
 * answers the event stored under it; a claim whose event never came (its publisher crashed between the
 * two writes) is taken over once its lease ran out.
 */
import { randomUUID } from 'node:crypto';
import {
  CLAIM_LEASE_MS,
  PUBLISH_BACKOFF_BASE_MS,
  PUBLISH_BACKOFF_BUDGET_MS,
  PUBLISH_BACKOFF_CAP_MS,
  PUBLISH_SEQUENCE_TRIES,
} from '#config/limits';
import { cappedDoubling } from '#domain/backoff';
import { BusyError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import type { ClaimResult, EventLog, IdClaim, NewEvent } from '#domain/ports';
import { nextSequence } from './next-sequence';

/** What storing in the log needs. */
export interface StoreInLogDeps {
  readonly events: Pick<
    EventLog,
    'latestSequence' | 'claimId' | 'readClaim' | 'moveClaim' | 'insertEvent' | 'readEvent'
  >;
  /** Epoch ms. */
  readonly now: () => number;
  /** Waits between looks at a duplicate's claim and after a lost sequence; tests make it instant. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1): the jitter of the wait after a lost sequence; tests fix it. */
  readonly random?: () => number;
  /** The random token of this publish's claim; tests fix it. */
  readonly newOwner?: () => string;
}

/** The event to store, without its sequence: the body is built for whichever sequence it gets. */
export type EventDraft = Omit<NewEvent, 'sequence' | 'body'> & {
  /** The account's sequence floor (`Account.sequenceFloor`): sequences continue above it. */
  readonly sequenceFloor: number;
};

/** The stored event, or the one already stored under its id. */
export type StoreResult =
  | { readonly created: true; readonly event: EventRecord }
  | { readonly created: false; readonly existing: EventRecord };

/**
 * How long a duplicate waits for the publish that holds its id's claim (ms, summed waits between looks):
 * that publish may be waiting out contention for its sequence up to {@link PUBLISH_BACKOFF_BUDGET_MS},
 * and a duplicate that gave up sooner would answer busy for an event about to be stored.
 */
const DUPLICATE_WAIT_MS = PUBLISH_BACKOFF_BUDGET_MS + 1_000;

/** The wait before a duplicate's next look at the claim: 50 ms, doubling, at most 1 s. */
const lookWait = (look: number) => cappedDoubling(50, look, 1_000);

/**
 * Stores the event at the next sequence of its log, or answers the event already stored under its id.
 * On the healthy path: one eventually consistent read of the log's last key, the claim, the event.
 *
 * A lost sequence (another event took it first) costs a jittered wait ({@link lostRoundWait}), one
 * consistent read of the last key and the claim's move to the new sequence.
 *
 * @throws BusyError when no sequence could be taken in {@link PUBLISH_SEQUENCE_TRIES} tries, or by the
 *   first refused try that ends {@link PUBLISH_BACKOFF_BUDGET_MS} or more after this publish began, or a
 *   concurrent publish of the same id has not stored its event yet; nothing of this publish is left but a
 *   claim whose lease it ended, which the resend takes over (if ending the lease failed, the error is the
 *   BusyError's `cause` and the resend waits out the lease)
 */
export async function storeInLog(
  deps: StoreInLogDeps,
  draft: EventDraft,
  body: (sequence: number) => string,
): Promise<StoreResult> {
  const started = deps.now();
  const { sequenceFloor: _floor, ...fields } = draft;
  const next = (consistent: boolean) => nextSequence(deps.events, draft, consistent);
  // Eventually consistent first: a stale answer is only too low, which costs one refused put.
  let claim: IdClaim = {
    id: draft.id,
    orgId: draft.orgId,
    account: draft.account,
    sequence: await next(false),
    owner: (deps.newOwner ?? randomUUID)(),
    claimedAt: deps.now(),
    expiresAt: draft.expiresAt,
  };
  const first = await deps.events.claimId(claim);
  if (!first.claimed) {
    const resolved = await resolveClaim(deps, first, claim);
    if ('existing' in resolved) return { created: false, existing: resolved.existing };
    claim = resolved.claim;
  }
  let ownIdSeen = false;
  let leaseNotEnded: unknown;
  for (let tries = 1; ; tries++) {
    const put = await deps.events.insertEvent({
      ...fields,
      sequence: claim.sequence,
      body: body(claim.sequence),
    });
    if (put.created) return put;
    // Only a publish that took this claim over can have stored this id: its event is the answer.
    if (put.occupant === draft.id) {
      ownIdSeen = true;
      const existing = await deps.events.readEvent(claim, { consistent: true });
      if (existing) return { created: false, existing };
    }
    const wait = lostRoundWait(tries, deps.now() - started, deps.random ?? Math.random);
    if (wait === undefined) {
      // No refused put found this id, so no event has it (no other publish owned the claim): the claim's
      // lease ends now and the resend takes it over at once instead of waiting 30 s for it. A failure
      // here (throttled) must not turn the busy answer into a 500: the resend then waits out the lease.
      if (!ownIdSeen) {
        await deps.events
          .moveClaim(claim.owner, { ...claim, claimedAt: deps.now() - CLAIM_LEASE_MS })
          .catch((error: unknown) => {
            leaseNotEnded = error;
          });
      }
      break;
    }
    await (deps.sleep ?? defaultSleep)(wait);
    const moved = { ...claim, sequence: await next(true), claimedAt: deps.now() };
    // Taken over (this publish stalled past its lease): the owner now is another publish of this id.
    if (!(await deps.events.moveClaim(claim.owner, moved))) break;
    claim = moved;
  }
  throw new BusyError(
    `account: events of ${draft.account} are being published too fast to take a sequence; send the event again (same id).`,
    leaseNotEnded === undefined ? undefined : { cause: leaseNotEnded },
  );
}

/**
 * The wait (ms) after the `lost`-th refused sequence put, `elapsed` ms after the publish began, or
 * undefined when the publish must give up: {@link PUBLISH_SEQUENCE_TRIES} puts made, or
 * {@link PUBLISH_BACKOFF_BUDGET_MS} passed. Elapsed time, not the sum of the waits: slow (throttled)
 * rounds count too, so a publish ends within the budget and one round, whatever each round takes.
 * Full jitter: uniform below a window that doubles per loss, so the contenders of one log spread out;
 * no wait reaches past the budget.
 */
export function lostRoundWait(lost: number, elapsed: number, random: () => number): number | undefined {
  const left = PUBLISH_BACKOFF_BUDGET_MS - elapsed;
  if (lost >= PUBLISH_SEQUENCE_TRIES || left <= 0) return undefined;
  const window = cappedDoubling(PUBLISH_BACKOFF_BASE_MS, lost - 1, PUBLISH_BACKOFF_CAP_MS);
  return Math.min(left, Math.floor(random() * window));
}

/**
 * What an existing claim means for this publish: the event stored under the id, or the claim taken over
 * (an orphan whose lease ran out), moved to this publish's sequence.
 */
async function resolveClaim(
  deps: StoreInLogDeps,
  found: Exclude<ClaimResult, { claimed: true }>,
  mine: IdClaim,
): Promise<{ existing: EventRecord } | { claim: IdClaim }> {
  let current: Exclude<ClaimResult, { claimed: true }> | undefined = found;
  let waited = 0;
  for (let look = 0; waited < DUPLICATE_WAIT_MS; look++) {
    if (current === undefined) break;
    if ('legacy' in current) return { existing: current.legacy };
    const { existing } = current;
    const event = await deps.events.readEvent(existing, { consistent: true });
    if (event?.id === mine.id) return { existing: event };
    if (deps.now() - existing.claimedAt >= CLAIM_LEASE_MS) {
      const taken = { ...mine, claimedAt: deps.now() };
      if (await deps.events.moveClaim(existing.owner, taken)) return { claim: taken };
    } else {
      // A concurrent publish of this id holds the claim: its event comes within milliseconds, or within
      // its contention budget when its account is published to faster than its log can number.
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

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
