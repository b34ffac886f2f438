/**
 * The catch-up feed's read over a log with missing sequences (`readLogGapFree`), with the in-memory store:
 * it ends before a sequence a publish may still store, closes older ones with voids, takes an event that
 * landed meanwhile, and passes retention's deletions without writing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { FEED_LIMIT, HOLE_WAIT_MS } from '#config/limits';
import { type GapFreeDeps, readLogGapFree } from '#use-cases/events/gap-free-read';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryEventStore } from '../support/fakes/event-store';

const ORG = 'org-1';
const IBAN = 'DE89370400440532013000';

let clock: FakeClock;
let store: InMemoryEventStore;
let floorReads: number;
let floor: number;
let deps: GapFreeDeps;

beforeEach(() => {
  clock = new FakeClock();
  store = new InMemoryEventStore();
  floorReads = 0;
  floor = 0;
  deps = {
    events: store,
    floor: async () => {
      floorReads++;
      return floor;
    },
    now: clock.now,
  };
});

/** Events at `sequences`, ticketed `age` ms ago (none: stored without a ticket). */
function seed(sequences: readonly number[], age?: number): void {
  for (const sequence of sequences) {
    store.seed({
      id: `e${sequence}`,
      orgId: ORG,
      account: IBAN,
      sequence,
      ticketedAt: age === undefined ? undefined : clock.now() - age,
    });
  }
}

const read = (afterSequence: number, limit = 100) =>
  readLogGapFree(deps, ORG, IBAN, { afterSequence, limit });
const sequencesOf = (page: { events: readonly { sequence?: number | undefined }[] }) =>
  page.events.map((event) => event.sequence);

describe('readLogGapFree', () => {
  it('reads a log without missing sequences as the store does, without reading the floor', async () => {
    seed([1, 2, 3], 0);
    expect(await read(0, 2)).toMatchObject({ more: true, nextAfterSequence: 2 });
    expect(sequencesOf(await read(0))).toEqual([1, 2, 3]);
    expect(floorReads).toBe(0);
  });

  it('ends the answer before a sequence a publish may still store, with no next read at once', async () => {
    seed([1, 2], HOLE_WAIT_MS);
    seed([4, 5], HOLE_WAIT_MS - 1);
    const page = await read(0);
    expect(sequencesOf(page)).toEqual([1, 2]);
    expect(page).toMatchObject({ more: false, nextAfterSequence: 2 });
    expect(store.writes).toEqual([]);
    // The publish stores it: the next read goes on.
    seed([3], HOLE_WAIT_MS - 1);
    expect(sequencesOf(await read(2))).toEqual([3, 4, 5]);
  });

  it('closes a missing sequence once the ticket above it is HOLE_WAIT_MS old, and passes it', async () => {
    seed([1, 2], 0);
    seed([4, 5], 0);
    clock.advance(HOLE_WAIT_MS);
    const page = await read(0);
    expect(sequencesOf(page)).toEqual([1, 2, 4, 5]);
    expect(page).toMatchObject({ more: false, nextAfterSequence: 5 });
    expect(store.numbering.voidsOf(ORG, IBAN)).toEqual([3]);
    // The void is read as a closed sequence: no second write.
    expect(sequencesOf(await read(0))).toEqual([1, 2, 4, 5]);
    expect(store.writes).toEqual(['VoidSequence']);
    // No event can be stored there any more.
    const late = { id: 'late', orgId: ORG, account: IBAN, type: 't', triggeredAt: clock.iso(), body: '{}' };
    expect(await store.insertEvent({ ...late, sequence: 3, webhookStatus: 'pending' })).toEqual({
      created: false,
    });
  });

  it('returns an event that landed in a sequence it was closing, in order', async () => {
    seed([1, 2, 4], HOLE_WAIT_MS);
    const voidSequence = store.voidSequence;
    const landing: GapFreeDeps = {
      ...deps,
      events: {
        readLog: (org, account, r) => store.readLog(org, account, r),
        voidSequence: async (org, account, sequence, at) => {
          seed([sequence], HOLE_WAIT_MS);
          return voidSequence(org, account, sequence, at);
        },
      },
    };
    const page = await readLogGapFree(landing, ORG, IBAN, { afterSequence: 0, limit: 100 });
    expect(sequencesOf(page)).toEqual([1, 2, 3, 4]);
    expect(store.numbering.voidsOf(ORG, IBAN)).toEqual([]);
  });

  it("passes retention's deletions (at or below the floor) and a gap below an event stored without a ticket, writing nothing", async () => {
    floor = 40;
    seed([41, 42], 0);
    seed([45]);
    const page = await read(0);
    expect(sequencesOf(page)).toEqual([41, 42, 45]);
    expect(page).toMatchObject({ more: false, nextAfterSequence: 45 });
    expect(store.writes).toEqual([]);
  });

  it(`closes at most ${FEED_LIMIT} sequences per read and goes on from the last one closed`, async () => {
    seed([1], 0);
    seed([FEED_LIMIT + 52], 0);
    clock.advance(HOLE_WAIT_MS);
    const first = await read(0);
    expect(sequencesOf(first)).toEqual([1]);
    expect(first).toMatchObject({ more: true, nextAfterSequence: FEED_LIMIT + 1 });
    const second = await read(first.nextAfterSequence);
    expect(sequencesOf(second)).toEqual([FEED_LIMIT + 52]);
    expect(store.numbering.voidsOf(ORG, IBAN)).toHaveLength(FEED_LIMIT + 50);
  });
});
