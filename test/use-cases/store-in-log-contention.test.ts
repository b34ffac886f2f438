/**
 * The publish protocol (`storeInLog`) under contention for one account's sequences, with the in-memory
 * store: the jittered wait after a lost sequence, giving up (after its tries or its time), the claim's
 * lease ended for the resend, and duplicates racing the losers.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CLAIM_LEASE_MS,
  PUBLISH_BACKOFF_BUDGET_MS,
  PUBLISH_BACKOFF_CAP_MS,
  PUBLISH_SEQUENCE_TRIES,
} from '#config/limits';
import { BusyError } from '#domain/errors';
import { getEvent } from '#use-cases/events/read-events';
import {
  lostRoundWait,
  type StoreInLogDeps,
  type StoreResult,
  storeInLog,
} from '#use-cases/events/store-in-log';
import type { FakeClock } from '../support/fakes/clock';
import type { InMemoryEventStore } from '../support/fakes/event-store';
import { body, ORG, type StoreInLogFixture, storeInLogFixture } from '../support/store-in-log-fixture';

let clock: FakeClock;
let events: InMemoryEventStore;
let sleeps: number[];
let deps: StoreInLogDeps;
let draft: StoreInLogFixture['draft'];
let rival: StoreInLogFixture['rival'];
let bind: StoreInLogFixture['bind'];

beforeEach(() => {
  ({ clock, events, sleeps, deps, draft, rival, bind } = storeInLogFixture());
});

describe('storeInLog under contention for one account', () => {
  it('waits a jittered time below a window that doubles per lost round, up to the cap', () => {
    const top = () => 0.999_999;
    const windows = Array.from({ length: 7 }, (_, i) => lostRoundWait(i + 1, 0, top));
    expect(windows).toEqual([9, 19, 39, 79, 159, PUBLISH_BACKOFF_CAP_MS - 1, PUBLISH_BACKOFF_CAP_MS - 1]);
    expect(lostRoundWait(3, 0, () => 0.5)).toBe(20);
    // Never past the budget (elapsed since the publish began), none once it passed or every try was made.
    expect(lostRoundWait(9, PUBLISH_BACKOFF_BUDGET_MS - 5, top)).toBe(5);
    expect(lostRoundWait(9, PUBLISH_BACKOFF_BUDGET_MS, top)).toBeUndefined();
    expect(lostRoundWait(PUBLISH_SEQUENCE_TRIES, 0, top)).toBeUndefined();
  });

  it('after a lost sequence waits, reads the log again and moves its claim above the events stored meanwhile', async () => {
    rival(1, 1);
    let reads = 0;
    let waits = 0;
    const racing: StoreInLogDeps = {
      ...deps,
      random: () => 0.5,
      // While this publish waits, another event of the account is stored.
      sleep: async (ms) => {
        sleeps.push(ms);
        if (waits++ === 0) rival(2, 2);
      },
      events: {
        ...bind(),
        // The first read is stale (eventually consistent): it misses the event at 1.
        latestSequence: async (org, account) => (reads++ === 0 ? 0 : events.latestSequence(org, account)),
      },
    };
    const result = await storeInLog(racing, draft(1), body);
    expect(result).toMatchObject({ created: true, event: { id: draft(1).id, sequence: 3, body: body(3) } });
    expect(sleeps).toEqual([5]);
    expect(events.writes).toEqual(['PutClaim', 'PutItem', 'MoveClaim', 'PutItem']);
    expect(events.claims.get(draft(1).id)?.sequence).toBe(3);
  });

  it('gives up after PUBLISH_SEQUENCE_TRIES refused puts when time is left, and ends its claim so the resend is stored at once', async () => {
    const alwaysTaken: StoreInLogDeps = {
      ...deps,
      random: () => 0.999_999,
      events: {
        ...bind(),
        insertEvent: async (event) => {
          events.writes.push('PutItem');
          return { created: false, occupant: `rival-${event.sequence}` };
        },
      },
    };
    // The clock stands still (every round instant), so only the count of tries ends it.
    await expect(storeInLog(alwaysTaken, draft(1), body)).rejects.toThrow(BusyError);
    expect(sleeps).toHaveLength(PUBLISH_SEQUENCE_TRIES - 1);
    // The claim, each try's put, the move to the next sequence between tries, and the lease's end.
    expect(events.writes).toEqual([
      'PutClaim',
      ...Array.from({ length: PUBLISH_SEQUENCE_TRIES - 1 }, () => ['PutItem', 'MoveClaim']).flat(),
      'PutItem',
      'MoveClaim',
    ]);
    expect(events.events.size).toBe(0);
    expect(events.claims.get(draft(1).id)?.claimedAt).toBe(clock.now() - CLAIM_LEASE_MS);
    // The resend is another request (another owner token), seconds later, not 30 s later.
    clock.advance(1_000);
    const resent = await storeInLog(deps, draft(1), body);
    expect(resent).toMatchObject({ created: true, event: { id: draft(1).id, sequence: 1 } });
  });

  it('gives up once its budget of elapsed time passed, slow rounds counted with the waits', async () => {
    const ROUND_MS = 300;
    const began = clock.now();
    const putsAt: number[] = [];
    const slow: StoreInLogDeps = {
      ...deps,
      random: () => 0.999_999,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.advance(ms);
      },
      events: {
        ...bind(),
        // Each refused put takes a throttled round's time.
        insertEvent: async (event) => {
          putsAt.push(clock.now() - began);
          clock.advance(ROUND_MS);
          return { created: false, occupant: `rival-${event.sequence}` };
        },
      },
    };
    await expect(storeInLog(slow, draft(1), body)).rejects.toThrow(BusyError);
    // The waits alone stay below the budget: summing them would have gone on trying.
    expect(sleeps.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(PUBLISH_BACKOFF_BUDGET_MS - ROUND_MS);
    expect(putsAt.length).toBeLessThan(PUBLISH_SEQUENCE_TRIES);
    // No try starts after the budget; the publish gives up when a refusal ends on or past it, and ends
    // within one round after it.
    const lastPut = putsAt.at(-1) ?? Number.NaN;
    expect(lastPut).toBeLessThanOrEqual(PUBLISH_BACKOFF_BUDGET_MS);
    expect(lastPut + ROUND_MS).toBeGreaterThanOrEqual(PUBLISH_BACKOFF_BUDGET_MS);
    expect(clock.now() - began).toBeLessThanOrEqual(PUBLISH_BACKOFF_BUDGET_MS + ROUND_MS);
    expect(events.claims.get(draft(1).id)?.claimedAt).toBe(clock.now() - CLAIM_LEASE_MS);
  });

  it('answers busy, not the error, when ending its lease fails on giving up', async () => {
    const throttled = new Error('ProvisionedThroughputExceededException');
    const failing: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        insertEvent: async (event) => ({ created: false, occupant: `rival-${event.sequence}` }),
        // Every move to the next sequence goes through; the lease's end (a claim a lease old) fails.
        moveClaim: async (owner, claim) => {
          if (claim.claimedAt < clock.now()) throw throttled;
          return events.moveClaim(owner, claim);
        },
      },
    };
    const error = await storeInLog(failing, draft(1), body).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BusyError);
    expect((error as BusyError).cause).toBe(throttled);
    // The claim keeps its lease (a resend within it answers busy); nothing is stored.
    expect(events.claims.get(draft(1).id)?.claimedAt).toBe(clock.now());
    expect(events.events.size).toBe(0);
  });

  it('keeps the lease of a claim whose id was found stored at a refused sequence', async () => {
    let puts = 0;
    const ownFound: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        // Its own id at the first refused sequence (unreadable by now), other ids at the next ones.
        insertEvent: async (event) => ({
          created: false,
          occupant: event.sequence === 1 ? draft(1).id : `rival-${event.sequence}`,
        }),
        readEvent: async () => undefined,
        latestSequence: async () => (puts++ === 0 ? 0 : puts),
      },
    };
    await expect(storeInLog(ownFound, draft(1), body)).rejects.toThrow(BusyError);
    expect(events.claims.get(draft(1).id)?.claimedAt).toBe(clock.now());
  });

  it('stops without touching a claim that a duplicate took over while it waited', async () => {
    let overtaken = false;
    const stalled: StoreInLogDeps = {
      ...deps,
      sleep: async () => {
        const claim = events.claims.get(draft(1).id);
        if (claim && !overtaken) events.claims.set(claim.id, { ...claim, owner: 'other', claimedAt: 7 });
        overtaken = true;
      },
      events: {
        ...bind(),
        insertEvent: async (event) => ({ created: false, occupant: `rival-${event.sequence}` }),
      },
    };
    await expect(storeInLog(stalled, draft(1), body)).rejects.toThrow(BusyError);
    expect(events.claims.get(draft(1).id)).toMatchObject({ owner: 'other', claimedAt: 7 });
  });

  it('after a give-up, the resend takes the ended claim over at once, racing a duplicate, and stores the id once, gap-free', async () => {
    // A losing publish: at every sequence it reads, another publisher stores its event just before it.
    let rivals = 0;
    const losing: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        insertEvent: async (event) => {
          rival(++rivals, event.sequence);
          return events.insertEvent(event);
        },
      },
    };
    await expect(storeInLog(losing, draft(1), body)).rejects.toThrow(BusyError);
    expect(rivals).toBe(PUBLISH_SEQUENCE_TRIES);
    // At once (the clock has not moved): the resend, a duplicate of it and another publish, interleaved.
    const interleaved: StoreInLogDeps = {
      ...deps,
      sleep: () => new Promise((resolve) => setTimeout(resolve, 0)),
    };
    const send = (n: number): Promise<StoreResult | Error> =>
      storeInLog(interleaved, draft(n), body).catch((error: Error) => error);
    const first = await Promise.all([send(1), send(1), send(2)]);
    // The duplicate may answer busy (the resend not stored yet); its own resend gets the stored event.
    const answers = await Promise.all(
      first.map((result, k) => (result instanceof BusyError ? send(k === 2 ? 2 : 1) : result)),
    );
    const ofId = answers.map((result) => {
      if (result instanceof Error) throw result;
      return result.created ? result.event : result.existing;
    });
    expect(answers.filter((result) => !(result instanceof Error) && result.created)).toHaveLength(2);
    const stored = [...events.events.values()].filter((event) => event.id === draft(1).id);
    expect(stored).toHaveLength(1);
    expect(ofId[0]).toEqual(ofId[1]);
    expect(ofId[0]?.id).toBe(draft(1).id);
    // Gap-free: the rivals' 1..32, then the resend and the other publish.
    const sequences = [...events.events.values()]
      .map((event) => event.sequence)
      .sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(sequences).toEqual(Array.from({ length: PUBLISH_SEQUENCE_TRIES + 2 }, (_, i) => i + 1));
    // GET /events/{id} reads the resend's event through its claim.
    expect(await getEvent(events, ORG, draft(1).id)).toMatchObject({
      id: draft(1).id,
      sequence: stored[0]?.sequence,
      body: body(stored[0]?.sequence ?? 0),
    });
    expect(events.claims.get(draft(1).id)?.sequence).toBe(stored[0]?.sequence);
  });

  it('stores concurrent publishes and their duplicates once each, at exactly 1..n, waits interleaved', async () => {
    const interleaved: StoreInLogDeps = {
      ...deps,
      // Each wait lets every other publish run a step.
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms % 3)),
    };
    const ids = Array.from({ length: 12 }, (_, i) => i);
    const send = (i: number): Promise<StoreResult | Error> =>
      storeInLog(interleaved, draft(i), body).catch((error: Error) => error);
    const first = await Promise.all([...ids, ...ids].map(send));
    // A duplicate may answer busy (its twin not stored yet); its resend then gets the stored event.
    const resent = await Promise.all(
      first.map((result, k) => (result instanceof BusyError ? send(k % ids.length) : result)),
    );
    const created = resent.filter((result) => !(result instanceof Error) && result.created);
    expect(created).toHaveLength(ids.length);
    const sequences = [...events.events.values()]
      .map((event) => event.sequence)
      .sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(sequences).toEqual(ids.map((i) => i + 1));
    for (const result of resent) {
      if (result instanceof Error) throw result;
      const event = result.created ? result.event : result.existing;
      expect(events.claims.get(event.id)?.sequence).toBe(event.sequence);
    }
  });
});
