/**
 * Putting claimed events at their sequences (`store-in-log.ts` claims them): the conditional put, and what
 * follows a put refused because another event (or a reader's void) holds the sequence: a new ticket above
 * it and the claim moved there, for one event, or for a whole batch range whose first sequence was taken.
 */
import { PUBLISH_BATCH_CONCURRENCY, PUBLISH_BUDGET_MS, PUBLISH_SEQUENCE_TRIES } from '#config/limits';
import { BusyError } from '#domain/errors';
import type { IdClaim, InsertEventResult } from '#domain/ports';
import { endLease } from './id-claims';
import { inParallel } from './in-parallel';
import type { DraftEntry, StoreInLogDeps, StoreOutcome, StoreResult } from './log-drafts';
import { giveBack, takeSequences } from './sequencing';

/** An entry whose claim this publish holds, at the sequence to try, and the ticket time of that sequence. */
export interface Claimed {
  readonly entry: DraftEntry;
  readonly index: number;
  readonly claim: IdClaim;
  readonly ticketedAt: number | undefined;
}

/**
 * Stores the first of `claimed` (entry order) alone, and answers the others to store. While another
 * event holds its sequence (a publish that read the log before its head existed put there: a ticket of a
 * head created from an older read can meet it), each entry moves to the next entry's sequence and the
 * last takes a new ticket: the batch stays in its order, loses no sequence it was handed, and stays
 * consecutive but for its last entry when another ticket was taken meanwhile.
 */
export async function storeFirst(
  deps: StoreInLogDeps,
  claimed: readonly Claimed[],
  started: number,
  outcomes: StoreOutcome[],
): Promise<Claimed[]> {
  let range = [...claimed];
  for (let tries = 1; ; tries++) {
    const [first, ...rest] = range;
    if (first === undefined) return [];
    const put = await settle(() => putOnce(deps, first));
    const lost = !('error' in put) && !put.created && put.occupant !== first.entry.draft.id;
    const spent = tries >= PUBLISH_SEQUENCE_TRIES || deps.now() - started >= PUBLISH_BUDGET_MS;
    if (!lost || rest.length === 0 || spent) {
      outcomes[first.index] = await settle(() => putUntilStored(deps, first, started, put));
      return rest;
    }
    try {
      const last = range.at(-1) as Claimed;
      const ticket = await takeSequences(deps, last.entry.draft, 1, { above: last.claim.sequence });
      const places = [...rest.map((item) => item.claim.sequence), ticket.first];
      const times = [...rest.map((item) => item.ticketedAt), ticket.at];
      range = await moveAll(deps, range, places, times, outcomes);
    } catch (error) {
      // The range could not move: its entries are refused, their claims let go for the resends.
      for (const item of range) {
        await letGo(deps, item);
        outcomes[item.index] = { error };
      }
      return [];
    }
  }
}

/** Moves the claim of each entry of `range` to its sequence of `places`; a claim taken over is dropped. */
async function moveAll(
  deps: StoreInLogDeps,
  range: readonly Claimed[],
  places: readonly number[],
  times: readonly (number | undefined)[],
  outcomes: StoreOutcome[],
): Promise<Claimed[]> {
  const moved = await inParallel(range, PUBLISH_BATCH_CONCURRENCY, async (item, k) => {
    const claim = { ...item.claim, sequence: places[k] as number, claimedAt: deps.now() };
    if (await deps.events.moveClaim(item.claim.owner, claim)) return { ...item, claim, ticketedAt: times[k] };
    // Taken over by a resend of the id (this publish ran past its lease): that publish answers it.
    outcomes[item.index] = { error: busy(item.entry.draft.account) };
    return undefined;
  });
  return moved.filter((item) => item !== undefined);
}

/** One put of the entry's event at its claim's sequence. */
function putOnce(deps: StoreInLogDeps, item: Claimed): Promise<InsertEventResult> {
  const { sequenceFloor: _floor, ...fields } = item.entry.draft;
  return deps.events.insertEvent({
    ...fields,
    sequence: item.claim.sequence,
    body: item.entry.body(item.claim.sequence),
    ticketedAt: item.ticketedAt,
  });
}

/**
 * Puts the event (unless `tried` already did, with that result) until it is stored: while another event
 * (or a void) holds its sequence, it takes a new ticket above that sequence and moves its claim there. A
 * put refused by its own id (a publish that took this claim over stored it) answers that event.
 *
 * @throws BusyError after {@link PUBLISH_SEQUENCE_TRIES} refused puts, or at the first that ends
 *   {@link PUBLISH_BUDGET_MS} after the publish began; then, and on any failure, the claim's lease is
 *   ended (unless the id was seen stored, or another publish took the claim over) so the resend takes it
 *   over at once
 */
export async function putUntilStored(
  deps: StoreInLogDeps,
  item: Claimed,
  started: number,
  tried?: InsertEventResult | { readonly error: unknown },
): Promise<StoreResult> {
  let current = item;
  let ownIdSeen = false;
  let ours = true;
  try {
    for (let tries = 1; ; tries++) {
      const put = tries === 1 && tried !== undefined ? tried : await putOnce(deps, current);
      if ('error' in put) throw put.error;
      if (put.created) return put;
      // Only a publish that took this claim over can have stored this id: its event is the answer.
      if (put.occupant === current.entry.draft.id) {
        ownIdSeen = true;
        const existing = await deps.events.readEvent(current.claim, { consistent: true });
        if (existing) return { created: false, existing };
      }
      if (tries >= PUBLISH_SEQUENCE_TRIES || deps.now() - started >= PUBLISH_BUDGET_MS) break;
      const { entry, claim } = current;
      const ticket = await takeSequences(deps, entry.draft, 1, { above: claim.sequence });
      const moved = { ...claim, sequence: ticket.first, claimedAt: deps.now() };
      // Taken over (this publish stalled past its lease): the owner now is another publish of this id.
      ours = await deps.events.moveClaim(claim.owner, moved);
      if (!ours) break;
      current = { ...current, claim: moved, ticketedAt: ticket.at };
    }
  } catch (error) {
    // A failed write (throttled past its retries, say): the lease ends and the resend takes the claim
    // over, filling its sequence. No void: it would be one more write to a partition that is already
    // refusing them, and the resend is about to use the sequence.
    if (ours && !ownIdSeen) await endLease(deps, current.claim);
    throw error;
  }
  // No refused put found this id, so no event has it: the lease ends and the resend takes over at once.
  const cause = ours && !ownIdSeen ? await letGo(deps, current) : undefined;
  throw busy(current.entry.draft.account, cause);
}

/**
 * What a publish that gives up (busy) does with its claim: its lease ends, so the id's resend takes it
 * over at once, and a ticket's sequence it held is given back (the resend, finding it closed, takes a new
 * one). Answers the lease's failure to end, if any.
 */
async function letGo(deps: StoreInLogDeps, item: Claimed): Promise<unknown> {
  const cause = await endLease(deps, item.claim);
  if (item.ticketedAt !== undefined)
    await giveBack(deps, item.entry.draft, item.claim.sequence, item.ticketedAt);
  return cause;
}

export function busy(account: string, cause?: unknown): BusyError {
  return new BusyError(
    `account: events of ${account} are being published too fast to take a sequence; send the event again (same id).`,
    cause === undefined ? undefined : { cause },
  );
}

/** The outcome of `work`, its failure kept as the entry's error instead of failing the others. */
export async function settle<T>(work: () => Promise<T>): Promise<T | { readonly error: unknown }> {
  try {
    return await work();
  } catch (error) {
    return { error };
  }
}
