/**
 * How an account's log numbers its events: the one place that decides which sequences a publish may try.
 * Storing at them, with the ids' claims, is `store-in-log.ts`; the readers' side of a missing sequence is
 * `domain/log-holes.ts`. The reasons and the measurements are in docs/design.md ("Account logs").
 *
 * **Quiet log (no head): the optimistic first try.** A publish reads the log's tail (one eventually
 * consistent Query, `Limit 1`: the same read unit it always paid) and tries (highest + 1), or the floor's
 * next, with a conditional put. Uncontended, that is the whole cost: no ticket, no extra write.
 *
 * **Hot log (a head): tickets.** The head (`HEAD` in the log's partition, after every sequence key) holds
 * `hi`, the highest sequence handed out, and `at`, the last ticket's time. A ticket is one UpdateItem
 * adding `count` to `hi`: DynamoDB serializes updates of one item, so concurrent tickets get disjoint,
 * consecutive ranges and none is ever refused: contention costs nothing more than the ticket's one write
 * unit, whatever the number of publishers. A batch takes one ticket per account.
 *
 * **Entering**: a quiet try that lost (another event took its sequence), and any publish of several events
 * to one account, take a ticket with `above` = the log's highest item read consistently (and the floor):
 * the head is created above it, or lifted to it if it lags. Nothing else is atomic with the creation, so
 * a publish that read the tail just before it may still put at (that tail + 1); such a put and a ticket's
 * put meet on one sequence, and the conditional put gives it to one of them: the other takes a new ticket
 * above it. It costs a refused put and a ticket, never a duplicate or a gap.
 *
 * **Leaving**: a single publish that finds the head idle for {@link HEAD_IDLE_MS} deletes it, conditioned
 * on the `hi` and `at` it read (a ticket since refuses the delete, and the publish takes a ticket too),
 * and publishes on the quiet path again: the quiet path's cost returns seconds after a burst.
 *
 * Why no race can number two events alike or lose a sequence:
 * - **Two events at one sequence**: impossible. Every event put (quiet try, ticket, takeover, upgrade) is
 *   conditioned on the sequence being free; a void (a reader's closing, below) occupies it too.
 * - **A straggler** (a publish that read the tail before the head existed) aims at (its tail + 1): if a
 *   ticket handed that sequence out too, one put wins and the other takes a new ticket. If the head was
 *   created from a tail read older than the straggler's success, the head lags: the next ticket that
 *   collides lifts it above the sequence it lost (`above`), so a collision is paid at most once per
 *   sequence taken meanwhile.
 * - **A head removed while a ticket is out**: the removal is only conditioned on no new ticket, not on
 *   every ticket's event being stored. The quiet path then tries (highest + 1), which may be a sequence
 *   a ticket holder is still putting at: the conditional put decides, the loser takes a new one. A ticket
 *   handed out but never stored (crashed) below the highest becomes a hole; one above the highest is
 *   simply given again by the quiet path (no event ever had it).
 * - **A crash after any write**: the claim (written before the event, pointing at its sequence) is taken
 *   over by the id's resend once its lease ran out (`CLAIM_LEASE_MS`), which first tries the very
 *   sequence the claim names (so the crashed publish's own hole is filled when still free) and otherwise
 *   takes a new ticket. A ticket taken and never used leaves a hole.
 * - **A concurrent duplicate**: a batch reads its ids' claims before it takes a ticket, so a published id
 *   never costs a sequence; two publishes of one new id at the same moment can both take a ticket, and
 *   the one whose claim put is refused gives its sequence back (`giveBack`: a void at once, or, if that
 *   fails, a hole). A publish that gives up (busy) gives its ticket's sequence back too; one whose write
 *   failed (throttled past its retries) leaves it to the id's resend, which takes the claim over and
 *   stores there.
 * - **A batch's range below events stored meanwhile** (a head created from an older read while quiet
 *   puts landed): its first event is put alone; when another event holds its sequence, each entry moves
 *   to the next entry's sequence and the last takes a new ticket (`log-puts.ts`), so the batch keeps its
 *   order and every sequence it was handed.
 * - **Holes** (a crash, a failed write or a failed give-back above leave one) are never passed while an
 *   event may still take them: readers close a missing sequence with a void item (a conditional put)
 *   before passing it, and wait for it while the ticket of the event above it is younger than
 *   `HOLE_WAIT_MS` (its publish may still be storing it). A receiver sees a sequence that never comes, neither as a webhook nor in the
 *   feed; the feed passes it once closed, at most `HOLE_WAIT_MS` after the next event's ticket.
 * - **Retention and `seq_floor`**: tickets start above the floor as the quiet path does (`above`
 *   includes it), so a sequence retention deleted is never handed out again; readers pass missing
 *   sequences at or below the floor as final.
 * - **The ordered watermark** only moves over sequences the order gate read as settled: an event, a void,
 *   or a sequence the hole rule calls final (`delivery/order.ts`); never over a sequence a ticket may
 *   still fill.
 */
import { HEAD_IDLE_MS } from '#config/limits';
import type { EventLog, Ticket } from '#domain/ports';
import type { LogPlace } from './next-sequence';

/** What the numbering reads and writes. */
export interface SequencingDeps {
  readonly events: Pick<
    EventLog,
    'readTail' | 'latestSequence' | 'takeTicket' | 'takeTicketAbove' | 'leaveHot' | 'voidSequence'
  >;
  /** Epoch ms. */
  readonly now: () => number;
}

/** Where a publish's sequences come from: the quiet log's next sequence to try, or tickets of the head. */
export type Numbering = { readonly quiet: true; readonly next: number } | { readonly quiet: false };

/**
 * How the log numbers now, from one eventually consistent read of its tail (a stale answer is only too
 * low: the quiet try then loses to the event it missed, and the publish takes a ticket). With
 * `mayLeave` (a single publish), a head idle for {@link HEAD_IDLE_MS} is removed and the log is quiet
 * again; a publish of several events keeps it (it would take a ticket right away).
 */
export async function numberingOf(
  deps: SequencingDeps,
  log: LogPlace,
  mayLeave: boolean,
): Promise<Numbering> {
  const tail = await deps.events.readTail(log.orgId, log.account);
  if ('highest' in tail) return { quiet: true, next: Math.max(tail.highest, log.sequenceFloor) + 1 };
  const idle = deps.now() - tail.head.at >= HEAD_IDLE_MS;
  if (!mayLeave || !idle || !(await deps.events.leaveHot(log.orgId, log.account, tail.head))) {
    return { quiet: false };
  }
  const highest = await deps.events.latestSequence(log.orgId, log.account);
  return { quiet: true, next: Math.max(highest, log.sequenceFloor) + 1 };
}

/**
 * `count` consecutive sequences from the log's head. `from: 'head'` (the tail read showed one): a ticket
 * of that head, or, if it was removed meanwhile, of a new one. `above` (a quiet log, or a sequence just
 * lost to another event): a ticket above `above` and above the log's highest item, read consistently (so
 * a new head starts above everything stored, and a lagging one is lifted), and above the floor.
 */
export async function takeSequences(
  deps: SequencingDeps,
  log: LogPlace,
  count: number,
  from: 'head' | { readonly above: number },
): Promise<Ticket> {
  const { orgId, account } = log;
  if (from === 'head') {
    const ticket = await deps.events.takeTicket(orgId, account, count, deps.now());
    if (ticket) return ticket;
  }
  const highest = await deps.events.latestSequence(orgId, account, { consistent: true });
  const above = Math.max(highest, log.sequenceFloor, from === 'head' ? 0 : from.above);
  return deps.events.takeTicketAbove(orgId, account, count, deps.now(), above);
}

/**
 * Gives back a sequence of a ticket that this publish will not store at (its id turned out published by
 * a concurrent publish, or it gives up): closed at once with a void, so readers do not wait
 * `HOLE_WAIT_MS` for it. Only a ticket's sequence: no other publish can have been handed it (a publish
 * that read the log before it turned hot may still have put there, and then the void is refused, which
 * is as good). The void carries the ticket's time (`ticketedAt`): sequences below it may have been handed
 * to publishes a moment earlier that are still storing them, and readers wait for them as below that
 * ticket's event instead of closing them (`domain/log-holes.ts`). Best effort: a failure leaves the hole
 * for the readers to close.
 */
export async function giveBack(
  deps: SequencingDeps,
  log: LogPlace,
  sequence: number,
  ticketedAt: number,
): Promise<void> {
  await deps.events.voidSequence(log.orgId, log.account, sequence, deps.now(), ticketedAt).catch(() => false);
}
