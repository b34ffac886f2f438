/**
 * Storing several events of one account at once (`storeAllInLog`, a batch's group), with the in-memory
 * store: one ticket, consecutive sequences in the batch's order, ids already published costing no
 * sequence, one id twice, a duplicate racing the claims, a range a straggler took, and batches racing
 * singles on one log.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS } from '#config/limits';
import { BusyError } from '#domain/errors';
import type { LogPage } from '#domain/ports';
import { readLogGapFree } from '#use-cases/events/gap-free-read';
import {
  type DraftEntry,
  type StoreInLogDeps,
  type StoreOutcome,
  storeAllInLog,
  storeInLog,
} from '#use-cases/events/store-in-log';
import type { FakeClock } from '../support/fakes/clock';
import type { InMemoryEventStore } from '../support/fakes/event-store';
import { body, IBAN, ORG, type StoreInLogFixture, storeInLogFixture } from '../support/store-in-log-fixture';

let clock: FakeClock;
let events: InMemoryEventStore;
let deps: StoreInLogDeps;
let draft: StoreInLogFixture['draft'];
let rival: StoreInLogFixture['rival'];
let bind: StoreInLogFixture['bind'];

beforeEach(() => {
  ({ clock, events, deps, draft, rival, bind } = storeInLogFixture());
});

const entries = (...ns: number[]): DraftEntry[] => ns.map((n) => ({ draft: draft(n), body }));
const sequenceOf = (outcome: StoreOutcome | undefined) => {
  if (outcome === undefined || 'error' in outcome) throw new Error(`not stored: ${String(outcome)}`);
  return (outcome.created ? outcome.event : outcome.existing).sequence;
};

describe('storeAllInLog', () => {
  it('stores a batch on a quiet log at consecutive sequences in its order, with one ticket', async () => {
    rival(1, 1);
    const outcomes = await storeAllInLog(deps, entries(1, 2, 3, 4));
    expect(outcomes.map(sequenceOf)).toEqual([2, 3, 4, 5]);
    expect(outcomes.every((outcome) => 'created' in outcome && outcome.created)).toBe(true);
    expect(events.writes.filter((write) => write === 'TakeTicket')).toHaveLength(1);
    // Claims, then the first event alone, then the others.
    expect(events.writes).toEqual([
      'TakeTicket',
      'PutClaim',
      'PutClaim',
      'PutClaim',
      'PutClaim',
      'PutItem',
      'PutItem',
      'PutItem',
      'PutItem',
    ]);
    for (const outcome of outcomes) {
      if ('error' in outcome || !outcome.created) throw new Error('not created');
      expect(outcome.event).toMatchObject({
        ticketedAt: clock.now(),
        body: body(outcome.event.sequence ?? 0),
      });
      expect(events.claims.get(outcome.event.id)?.sequence).toBe(outcome.event.sequence);
    }
  });

  it('answers ids already published with their stored events and spends no sequence on them', async () => {
    await storeInLog(deps, draft(2), body);
    events.writes.length = 0;
    const outcomes = await storeAllInLog(deps, entries(1, 2, 3));
    expect(outcomes[1]).toMatchObject({ created: false, existing: { id: draft(2).id, sequence: 1 } });
    expect([outcomes[0], outcomes[2]].map(sequenceOf)).toEqual([2, 3]);
    expect(events.writes.filter((write) => write === 'PutClaim')).toHaveLength(2);
  });

  it('stores an id named twice in one batch once, and answers the second with the first', async () => {
    const outcomes = await storeAllInLog(deps, entries(1, 2, 1));
    expect(outcomes.map(sequenceOf)).toEqual([1, 2, 1]);
    expect(outcomes[2]).toMatchObject({ created: false, existing: { id: draft(1).id } });
    expect([...events.events.values()]).toHaveLength(2);
  });

  it('gives back the sequence of an entry whose id a concurrent publish claimed meanwhile (a void at once), the others keep theirs', async () => {
    let raced = false;
    const racing: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        // The id of the second entry is claimed by another publish between the read and the claim.
        claimId: async (claim) => {
          if (claim.id === draft(2).id && !raced) {
            raced = true;
            await events.claimId({
              ...claim,
              sequence: 99,
              owner: 'other',
              claimedAt: clock.now() - CLAIM_LEASE_MS,
            });
          }
          return events.claimId(claim);
        },
      },
    };
    const outcomes = await storeAllInLog(racing, entries(1, 2, 3));
    // The orphan (its lease ran out) is taken over at the sequence it named, in another place.
    expect(outcomes.map(sequenceOf)).toEqual([1, 99, 3]);
    expect(events.events.size).toBe(3);
    // Readers need not wait for 2: it is closed already.
    expect(events.numbering.voidsOf(ORG, IBAN)).toEqual([2]);
  });

  it('keeps the range of a batch free when a later ticket gives its sequence back and a feed reads in between', async () => {
    const feed = () =>
      readLogGapFree({ events, floor: async () => 0, now: clock.now }, ORG, IBAN, {
        afterSequence: 0,
        limit: 100,
      });
    // Y: a publish of a new id whose claim a concurrent duplicate (a resend, say) takes first: it gives its
    // ticket's sequence back.
    const duplicated: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        claimId: async (claim) => {
          await events.claimId({ ...claim, sequence: 99, owner: 'resend' });
          return events.claimId(claim);
        },
      },
    };
    const meanwhile = async () => {
      await expect(storeInLog(duplicated, draft(9), body)).rejects.toThrow(BusyError);
      expect(events.numbering.voidsOf(ORG, IBAN)).toEqual([4]);
      return feed();
    };
    let feedMeanwhile: Promise<LogPage> | undefined;
    const batch: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        // X holds its ticket (1..3) and has put nothing yet when Y gives 4 back and a reader comes.
        claimId: async (claim) => {
          feedMeanwhile ??= meanwhile();
          await feedMeanwhile;
          return events.claimId(claim);
        },
      },
    };
    const outcomes = await storeAllInLog(batch, entries(1, 2, 3));
    // The reader waited below the given-back 4 instead of closing X's live sequences.
    expect(await feedMeanwhile).toEqual({ events: [], voids: [], more: false, nextAfterSequence: 0 });
    expect(outcomes.map(sequenceOf)).toEqual([1, 2, 3]);
    expect(events.writes.filter((write) => write === 'MoveClaim')).toEqual([]);
    expect(events.numbering.voidsOf(ORG, IBAN)).toEqual([4]);
    const after = await feed();
    expect(after.events.map((event) => event.sequence)).toEqual([1, 2, 3]);
    expect(after.voids.map((closed) => closed.sequence)).toEqual([4]);
  });

  it('when its first sequence was taken, moves each entry to the next one and the last to a new ticket: in order, nothing lost', async () => {
    // A head created from an old read (0) while stragglers stored 1 and 2 on the quiet path.
    await events.takeTicketAbove(ORG, IBAN, 1, clock.now(), 0);
    rival(1, 1);
    rival(2, 2);
    const outcomes = await storeAllInLog(deps, entries(1, 2, 3));
    // Its ticket was 2..4; 2 was taken: 3, 4 and the next ticket, 5.
    expect(outcomes.map(sequenceOf)).toEqual([3, 4, 5]);
    expect(events.writes.filter((write) => write === 'MoveClaim')).toHaveLength(3);
    // A ticket taken meanwhile: the batch keeps its order and every sequence it was handed.
    rival(6, 6);
    await events.takeTicketAbove(ORG, IBAN, 1, clock.now(), 6);
    rival(8, 8);
    const crossed = await storeAllInLog(
      {
        ...deps,
        events: {
          ...bind(),
          takeTicket: async (org, account, count, at) => {
            const ticket = await events.takeTicket(org, account, count, at);
            // Another publish takes the next ticket right after this batch's.
            await events.takeTicket(org, account, 1, at);
            return ticket;
          },
        },
      },
      entries(4, 5, 6),
    );
    expect(crossed.map(sequenceOf)).toEqual([9, 10, 12]);
    expect(events.events.size).toBe(10);
  });

  it('keeps every batch consecutive and the log gap-free while batches and singles race on one log', async () => {
    const yielding = bind();
    const slow = Object.fromEntries(
      Object.entries(yielding).map(([name, call]) => [
        name,
        async (...args: unknown[]) => {
          await new Promise((resolve) => setTimeout(resolve, 0));
          return (call as (...a: unknown[]) => Promise<unknown>)(...args);
        },
      ]),
    ) as StoreInLogDeps['events'];
    const racing = { ...deps, events: slow };
    const batches = Array.from({ length: 8 }, (_, b) =>
      entries(...Array.from({ length: 10 }, (_, i) => 100 + b * 10 + i)),
    );
    const singles = Array.from({ length: 8 }, (_, i) => draft(i));
    const [batched, single] = await Promise.all([
      Promise.all(batches.map((batch) => storeAllInLog(racing, batch))),
      Promise.all(singles.map((one) => storeInLog(racing, one, body))),
    ]);
    const all = [...events.events.values()].map((event) => event.sequence ?? 0).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 88 }, (_, i) => i + 1));
    expect(single.every((result) => result.created)).toBe(true);
    // Each batch in its order; consecutive but for a last entry that moved past a taken first sequence.
    for (const outcomes of batched) {
      const sequences = outcomes.map(sequenceOf) as number[];
      const head = sequences.slice(0, -1);
      expect(head).toEqual(head.map((_, i) => (sequences[0] ?? 0) + i));
      expect(sequences.at(-1)).toBeGreaterThan(sequences.at(-2) ?? 0);
    }
  });
});
