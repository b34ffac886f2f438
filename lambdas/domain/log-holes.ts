/**
 * The hole rule: when a reader of an account's log (the catch-up feed, the order gate) may pass a sequence
 * that holds no item, shared so that every reader decides alike. Pure: the readers read, close and wait
 * (`use-cases/events/gap-free-read.ts`, `delivery/order.ts`).
 *
 * Why a log can miss a sequence below a stored event: a hot log hands out sequences by tickets
 * (`use-cases/events/sequencing.ts`), and a publish may store its event after later tickets' events were
 * stored, or never (it crashed, or its id turned out to be a duplicate). Retention (TTL) and erasure
 * delete events too. A reader must never pass a sequence that an event may still take: a receiver that
 * followed the feed past it would never see that event.
 *
 * The rule for a missing sequence `n`, given the item just above it in the read (`above`) and the
 * account's `seq_floor`:
 * - `n ≤ floor`: final. The floor is raised to every sequence retention deleted; nothing below it is
 *   ever handed out again (publishing and tickets start above it).
 * - `above` is an event stored without a ticket (a quiet log's first try, or the upgrade's move): final.
 *   Such an event was put at (the log's highest item + 1), so `above − 1` held an item when it was
 *   stored; a missing sequence below it was deleted since (retention or erasure, days later), and every
 *   sequence below a deleted one is as old: no put can still be under way for it.
 * - `above` carries a ticket's time less than {@link HOLE_WAIT_MS} ago: wait. Tickets are handed out in
 *   order, so `n`'s ticket is no younger than `above`'s, and its publish may still store it. `above` is
 *   an event stored through a ticket, or a void its publish wrote at once when it gave the ticket's
 *   sequence back (a concurrent duplicate of its id, a publish giving up): such a void says nothing
 *   about the sequences below it, which other publishes may have been handed a moment before.
 * - a ticket's time more than {@link HOLE_WAIT_MS} ahead of the reader's clock (the publisher's clock runs
 *   ahead): close. Waiting for it would stall the feed and ordered delivery for as long as the clocks
 *   differ, and closing is safe (below).
 * - otherwise (an older ticket, or a reader's void above: a reader closes only a gap it found old, and
 *   every sequence below it in that gap is as old): close. The reader writes a void item at `n` with a
 *   conditional put; when that succeeds, no event can take `n` any more (every event put is conditional
 *   on the sequence being free), so passing it is exact whatever the clocks say. When the put finds an
 *   event, the reader reads it. Time only decides when a reader tries to close, never whether passing is
 *   safe.
 */
import { HOLE_WAIT_MS } from '#config/limits';

/** An item of a log read as the rule sees it: an event or a void, with its ticket's time, if any. */
export interface LogItemView {
  readonly sequence: number;
  /**
   * Epoch ms of the ticket that handed the sequence out: of an event stored through one, or of a void a
   * publish wrote giving its ticket's sequence back. Absent for an event stored without a ticket and for
   * a reader's void.
   */
  readonly ticketedAt?: number | undefined;
  /** The item is a void: a closed sequence, which no event holds. */
  readonly voided?: true | undefined;
}

/** What a reader does about a missing sequence: pass it, wait for it, or close it first. */
export type HoleVerdict = 'final' | 'wait' | 'close';

/**
 * The verdict for missing sequence `missing`, whose next item above in the read is `above`; the same
 * for every missing sequence of one gap above the floor.
 */
export function holeVerdict(missing: number, above: LogItemView, floor: number, nowMs: number): HoleVerdict {
  if (missing <= floor) return 'final';
  if (above.ticketedAt === undefined) return above.voided ? 'close' : 'final';
  if (above.ticketedAt > nowMs + HOLE_WAIT_MS) return 'close';
  return nowMs - above.ticketedAt < HOLE_WAIT_MS ? 'wait' : 'close';
}

/** What a walk over one read decided. */
export interface LogWalk {
  /** Every sequence after the read's start up to this one may be passed once {@link close} holds voids. */
  readonly through: number;
  /** Missing sequences to close before passing them, ascending. */
  readonly close: readonly number[];
  /** The first missing sequence that may still be stored: the walk stopped below it. */
  readonly waitFor?: number | undefined;
}

/**
 * Walks the items of a read after sequence `after` (any order; those at or below `after` are ignored),
 * deciding every missing sequence between them by {@link holeVerdict}. It stops below the first sequence
 * to wait for, and after `maxClose` sequences to close (a reader's writes per request stay bounded; the
 * next read goes on). The sequences after the last item are not the read's to decide.
 */
export function walkLog(
  after: number,
  items: readonly LogItemView[],
  floor: number,
  nowMs: number,
  maxClose: number,
): LogWalk {
  const sorted = items.filter((item) => item.sequence > after).sort((a, b) => a.sequence - b.sequence);
  const close: number[] = [];
  let through = after;
  for (const item of sorted) {
    // Below the floor a gap is final; above it every missing sequence of the gap has the same verdict.
    const first = Math.max(through + 1, floor + 1);
    const verdict = first < item.sequence ? holeVerdict(first, item, floor, nowMs) : 'final';
    if (verdict === 'wait') return { through: first - 1, close, waitFor: first };
    for (let missing = first; verdict === 'close' && missing < item.sequence; missing++) {
      if (close.length === maxClose) return { through: missing - 1, close };
      close.push(missing);
    }
    through = item.sequence;
  }
  return { through, close };
}
