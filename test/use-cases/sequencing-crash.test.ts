/**
 * Crash injection into the log's numbering: for every path of a publish (a quiet log's first try, a lost
 * try turning the log hot, a hot log's ticket, a batch on a quiet and on a hot log, a batch whose range a
 * straggler took, leaving an idle head), the publish's process dies right after its k-th write, for every
 * k until it completes. Meanwhile another publisher goes on storing; a reader follows the feed at the
 * crash, after the ids are sent again (once the claims' lease ran out) and after the hole wait. No
 * sequence may be lost (every sequence up to the highest is an event or a reader's void), none reused
 * (one event per sequence, one per id), and no reader may pass a sequence that an event takes later.
 */
import { describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS, HEAD_IDLE_MS, HOLE_WAIT_MS } from '#config/limits';
import type { EventLog } from '#domain/ports';
import { readLogGapFree } from '#use-cases/events/gap-free-read';
import { type DraftEntry, type StoreInLogDeps, storeAllInLog } from '#use-cases/events/store-in-log';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryEventStore } from '../support/fakes/event-store';
import { body, IBAN, ORG } from '../support/store-in-log-fixture';

/** The writes of the numbering and of storing, as the store's port names them. */
const WRITES = new Set([
  'claimId',
  'moveClaim',
  'insertEvent',
  'takeTicket',
  'takeTicketAbove',
  'leaveHot',
  'voidSequence',
]);

class Crash extends Error {}

/** The store as one process sees it: dead (every call throws) once its `crashAfter`-th write is done. */
function process(
  store: InMemoryEventStore,
  crashAfter: number,
): { events: StoreInLogDeps['events']; crashed: () => boolean } {
  let writes = 0;
  let dead = false;
  const events = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (dead) throw new Crash('the process is gone');
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (WRITES.has(String(property)) && ++writes === crashAfter) {
          dead = true;
          throw new Crash(`crashed after write ${writes} (${String(property)})`);
        }
        return result;
      };
    },
  }) as unknown as StoreInLogDeps['events'];
  return { events, crashed: () => dead };
}

/** One world: a store, a clock, drafts of one account, a healthy publisher and a reader. */
function world() {
  const clock = new FakeClock();
  const store = new InMemoryEventStore();
  let owners = 0;
  const deps = (events: StoreInLogDeps['events'] = store): StoreInLogDeps => ({
    events,
    now: clock.now,
    sleep: async (ms) => clock.advance(ms),
    newOwner: () => `owner-${++owners}`,
  });
  const entry = (n: number): DraftEntry => ({
    draft: {
      id: `0193a7c4-1d2e-7f00-8a00-${String(n).padStart(12, '0')}`,
      orgId: ORG,
      account: IBAN,
      type: 'credit_transfer_status_change',
      triggeredAt: clock.iso(),
      webhookStatus: 'pending',
      sequenceFloor: 0,
    },
    body,
  });
  /** Reads the whole feed; the sequences it passed (up to where it stopped) and the events it returned. */
  const follow = async () => {
    const returned = new Set<number>();
    let after = 0;
    for (;;) {
      const page = await readLogGapFree(
        { events: store as EventLog, floor: async () => 0, now: clock.now },
        ORG,
        IBAN,
        { afterSequence: after, limit: 100 },
      );
      for (const event of page.events) returned.add(event.sequence ?? 0);
      after = page.nextAfterSequence;
      if (!page.more) return { passed: after, returned };
    }
  };
  return { clock, store, deps, entry, follow };
}

type World = ReturnType<typeof world>;

/** A publish path: what the log holds before, and the publish (a batch of entries from `first`). */
interface Path {
  readonly name: string;
  readonly arrange: (w: World) => Promise<void>;
  readonly entries: readonly number[];
}

const PATHS: readonly Path[] = [
  { name: 'a single publish to a quiet log', arrange: async () => {}, entries: [10] },
  {
    name: 'a single publish whose quiet try loses and turns the log hot',
    arrange: async (w) => {
      // The try's tail read is stale by one event: a rival took its sequence.
      await storeAllInLog(w.deps(), [w.entry(1)]);
      const tail = w.store.readTail;
      let stale = true;
      (w.store as { readTail: EventLog['readTail'] }).readTail = async (org, account) => {
        if (!stale) return tail(org, account);
        stale = false;
        return { highest: 0 };
      };
    },
    entries: [10],
  },
  {
    name: 'a single publish to a hot log',
    arrange: async (w) => {
      await storeAllInLog(w.deps(), [w.entry(1), w.entry(2)]);
    },
    entries: [10],
  },
  { name: 'a batch to a quiet log', arrange: async () => {}, entries: [10, 11, 12, 13] },
  {
    name: 'a batch to a hot log',
    arrange: async (w) => {
      await storeAllInLog(w.deps(), [w.entry(1), w.entry(2)]);
    },
    entries: [10, 11, 12, 13],
  },
  {
    name: "a batch whose range's first sequence a straggler took",
    arrange: async (w) => {
      // A head created from an old read (0) while stragglers stored 1 and 2 on the quiet path.
      await w.store.takeTicketAbove(ORG, IBAN, 1, w.clock.now(), 0);
      w.store.seed({ id: 'straggler-1', orgId: ORG, account: IBAN, sequence: 1 });
      w.store.seed({ id: 'straggler-2', orgId: ORG, account: IBAN, sequence: 2 });
    },
    entries: [10, 11, 12],
  },
  {
    name: 'a single publish that leaves an idle head',
    arrange: async (w) => {
      await storeAllInLog(w.deps(), [w.entry(1), w.entry(2)]);
      w.clock.advance(HEAD_IDLE_MS);
    },
    entries: [10],
  },
];

describe('the numbering of a log, crashed after every write', () => {
  for (const path of PATHS) {
    it(`${path.name}: loses no sequence, reuses none, and no reader passes one an event takes later`, async () => {
      let completed = false;
      for (let crashAfter = 1; !completed; crashAfter++) {
        expect(crashAfter).toBeLessThan(40);
        const w = world();
        await path.arrange(w);
        const dying = process(w.store, crashAfter);
        const entries = path.entries.map((n) => w.entry(n));
        // A crash before any entry was claimed (reading or leaving the head) fails the whole publish.
        const outcomes = await storeAllInLog(w.deps(dying.events), entries).catch((error: unknown) => {
          expect(error).toBeInstanceOf(Crash);
          return undefined;
        });
        completed = !dying.crashed();
        if (completed) expect(outcomes?.every((outcome) => !('error' in outcome))).toBe(true);
        // Another publisher goes on: its events land above whatever the crash left.
        await storeAllInLog(w.deps(), [w.entry(20)]);
        await storeAllInLog(w.deps(), [w.entry(21), w.entry(22)]);
        const atCrash = await w.follow();
        // The ids are sent again once the crashed publish's claims may be taken over.
        w.clock.advance(CLAIM_LEASE_MS);
        const resent = await storeAllInLog(w.deps(), entries);
        expect(resent.filter((outcome) => 'error' in outcome)).toEqual([]);
        await storeAllInLog(w.deps(), [w.entry(23)]);
        const afterResend = await w.follow();
        w.clock.advance(HOLE_WAIT_MS);
        const settled = await w.follow();

        const events = [...w.store.events.values()];
        const sequences = events.map((event) => event.sequence ?? 0).sort((a, b) => a - b);
        // One event per id, one per sequence.
        const ids = [...path.entries, 20, 21, 22, 23].map((n) => w.entry(n).draft.id);
        for (const id of ids) expect(events.filter((event) => event.id === id)).toHaveLength(1);
        expect(new Set(sequences).size).toBe(sequences.length);
        // Gap-free once readers closed what no publish will store: every sequence is an event or a void.
        const highest = sequences.at(-1) ?? 0;
        const voids = w.store.numbering.voidsOf(ORG, IBAN);
        for (let n = 1; n <= highest; n++) expect(sequences.includes(n) !== voids.includes(n)).toBe(true);
        expect(settled.passed).toBe(highest);
        // No reader passed a sequence that an event took afterwards.
        for (const read of [atCrash, afterResend]) {
          const later = sequences.filter((n) => n <= read.passed && !read.returned.has(n));
          expect(later).toEqual([]);
        }
        // Each claim names its event's sequence.
        for (const event of events) {
          if (event.id.startsWith('straggler')) continue;
          expect(w.store.claims.get(event.id)?.sequence).toBe(event.sequence);
        }
      }
    });
  }
});
