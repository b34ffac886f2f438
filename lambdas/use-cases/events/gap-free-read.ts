/**
 * A read of an account's log that passes no sequence an event may still take (the hole rule,
 * `domain/log-holes.ts`): the catch-up feed's read. The read itself is the store's (`readLog`, with its
 * limit and byte budget); this decides its missing sequences: final ones are passed, old ones closed with
 * a void first, and at a sequence a publish may still store the answer ends.
 */
import { FEED_LIMIT } from '#config/limits';
import { walkLog } from '#domain/log-holes';
import type { EventLog, LogPage, LogRead } from '#domain/ports';

/** What a gap-free read needs. */
export interface GapFreeDeps {
  readonly events: Pick<EventLog, 'readLog' | 'voidSequence'>;
  /**
   * The account's `seq_floor` (0 when none, or when the account is another organization's): read only
   * when the page misses a sequence, which a healthy log never does.
   */
  readonly floor: () => Promise<number>;
  /** Epoch ms. */
  readonly now: () => number;
}

/** Reads of the page again after a void found an event stored meanwhile (each read adds that event). */
const REREADS = 3;

/**
 * `readLog`, with every missing sequence between the events decided: the page ends before the first
 * sequence that a publish may still store (its event above was ticketed less than `HOLE_WAIT_MS` ago),
 * with `more: false`, as a receiver should not read again at once; older missing sequences are closed
 * with voids (at most {@link FEED_LIMIT} per read) and passed. `nextAfterSequence` is the last sequence
 * passed, which may be a void's or a final missing one's.
 */
export async function readLogGapFree(
  deps: GapFreeDeps,
  orgId: string,
  account: string,
  read: LogRead,
): Promise<LogPage> {
  let floor: number | undefined;
  for (let round = 0; ; round++) {
    const page = await deps.events.readLog(orgId, account, read);
    const items = [
      ...page.events.map((event) => ({ sequence: event.sequence ?? 0, ticketedAt: event.ticketedAt })),
      ...page.voids.map((closed) => ({ ...closed, voided: true as const })),
    ];
    let walk = walkLog(read.afterSequence, items, floor ?? 0, deps.now(), FEED_LIMIT);
    if (walk.close.length === 0 && walk.waitFor === undefined) return page;
    floor ??= await deps.floor();
    walk = walkLog(read.afterSequence, items, floor, deps.now(), FEED_LIMIT);
    // A void refused: an event landed in the sequence meanwhile, and it belongs in this page.
    let landed: number | undefined;
    for (const sequence of walk.close) {
      if (await deps.events.voidSequence(orgId, account, sequence, deps.now())) continue;
      landed ??= sequence;
    }
    if (landed !== undefined && round < REREADS) continue;
    const through = landed === undefined ? walk.through : Math.min(walk.through, landed - 1);
    const cutShort = through < Math.max(read.afterSequence, ...items.map((item) => item.sequence));
    return {
      events: page.events.filter((event) => (event.sequence ?? 0) <= through),
      voids: page.voids.filter((closed) => closed.sequence <= through),
      // At a sequence still being stored the answer ends for now (no next read at once); an answer cut
      // short for another reason (the voids' bound, an event that landed) goes on.
      more: walk.waitFor === undefined && (page.more || cutShort),
      nextAfterSequence: through,
    };
  }
}
