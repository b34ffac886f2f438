/**
 * The publish protocol (`storeInLog`) under contention for one account's sequences, with the in-memory
 * store: a lost quiet try turns the log hot (tickets of its head), a hot log numbers by tickets, an idle
 * head is left, a straggler's put meets a ticket's, and giving up (after its tries or its time) ends the
 * claim's lease for the resend.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS, HEAD_IDLE_MS, PUBLISH_BUDGET_MS, PUBLISH_SEQUENCE_TRIES } from '#config/limits';
import { BusyError } from '#domain/errors';
import { type StoreInLogDeps, type StoreResult, storeInLog } from '#use-cases/events/store-in-log';
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

const head = () => events.numbering.heads.get(`${ORG}#${IBAN}`);
const stored = (result: StoreResult) => (result.created ? result.event : result.existing);
const sequences = () => [...events.events.values()].map((event) => event.sequence ?? 0).sort((a, b) => a - b);

describe('storeInLog under contention for one account', () => {
  it('after a lost quiet try takes a ticket above the log, moves its claim there and stores, without waiting', async () => {
    rival(1, 1);
    let reads = 0;
    const stale: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        // The tail read is stale (eventually consistent): it misses the event at 1.
        readTail: async (org, account) => (reads++ === 0 ? { highest: 0 } : events.readTail(org, account)),
      },
    };
    const result = await storeInLog(stale, draft(1), body);
    expect(result).toMatchObject({
      created: true,
      event: { sequence: 2, body: body(2), ticketedAt: clock.now() },
    });
    expect(events.writes).toEqual(['PutClaim', 'PutItem', 'TakeTicket', 'MoveClaim', 'PutItem']);
    expect(events.claims.get(draft(1).id)?.sequence).toBe(2);
    // The log is hot now: its head handed out 2.
    expect(head()).toEqual({ handedOut: 2, at: clock.now() });
  });

  it('on a hot log reads the claim, takes one ticket, claims at its sequence and stores (one write unit more)', async () => {
    rival(1, 1);
    await events.takeTicketAbove(ORG, IBAN, 1, clock.now(), 0);
    events.writes.length = 0;
    const result = await storeInLog(deps, draft(1), body);
    expect(result).toMatchObject({ created: true, event: { sequence: 2, ticketedAt: clock.now() } });
    expect(events.writes).toEqual(['TakeTicket', 'PutClaim', 'PutItem']);
    // A published id costs no ticket: its claim is read first.
    const again = await storeInLog(deps, draft(1), body);
    expect(again).toMatchObject({ created: false, existing: { id: draft(1).id, sequence: 2 } });
    expect(events.writes).toEqual(['TakeTicket', 'PutClaim', 'PutItem']);
  });

  it('leaves a head idle for HEAD_IDLE_MS and publishes on the quiet path again', async () => {
    await storeInLog(deps, draft(1), body);
    await events.takeTicketAbove(ORG, IBAN, 1, clock.now(), 1);
    rival(2, 2);
    clock.advance(HEAD_IDLE_MS - 1);
    expect(await storeInLog(deps, draft(3), body)).toMatchObject({
      event: { sequence: 3, ticketedAt: clock.now() },
    });
    clock.advance(HEAD_IDLE_MS);
    events.writes.length = 0;
    const quiet = await storeInLog(deps, draft(4), body);
    expect(quiet).toMatchObject({ created: true, event: { sequence: 4 } });
    expect(quiet.created && quiet.event.ticketedAt).toBeUndefined();
    expect(events.writes).toEqual(['LeaveHot', 'PutClaim', 'PutItem']);
    expect(head()).toBeUndefined();
  });

  it('stays hot when a ticket was taken since it read the head as idle', async () => {
    await events.takeTicketAbove(ORG, IBAN, 1, clock.now(), 0);
    rival(1, 1);
    clock.advance(HEAD_IDLE_MS);
    const racing: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        readTail: async (org, account) => {
          const tail = await events.readTail(org, account);
          // Another publish takes a ticket between this read and the removal.
          await events.takeTicket(org, account, 1, clock.now());
          rival(2, 2);
          return tail;
        },
      },
    };
    expect(await storeInLog(racing, draft(3), body)).toMatchObject({ created: true, event: { sequence: 3 } });
    expect(head()?.handedOut).toBe(3);
  });

  it('a ticket whose sequence a straggler took takes the next one, lifting a head that lags', async () => {
    // The head was created from a read before stragglers' quiet puts at 1, 2 and 3 landed.
    await events.takeTicketAbove(ORG, IBAN, 1, clock.now(), 0);
    for (const sequence of [1, 2, 3]) rival(sequence, sequence);
    const result = await storeInLog(deps, draft(1), body);
    // Ticket 2 lost to a straggler; the head is lifted above the log's highest (3) for the next ticket.
    expect(result).toMatchObject({ created: true, event: { sequence: 4 } });
    expect(events.writes.filter((write) => write === 'LiftHead')).toHaveLength(1);
    expect(sequences()).toEqual([1, 2, 3, 4]);
  });

  it('stores 128 concurrent publishes of one account at exactly 1..128, none busy, at one ticket each beyond a quiet publish', async () => {
    const interleaved: StoreInLogDeps = {
      ...deps,
      sleep: () => new Promise((resolve) => setTimeout(resolve, 0)),
    };
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
    const results = await Promise.all(
      Array.from({ length: 128 }, (_, i) => storeInLog({ ...interleaved, events: slow }, draft(i), body)),
    );
    expect(results.every((result) => result.created)).toBe(true);
    expect(sequences()).toEqual(Array.from({ length: 128 }, (_, i) => i + 1));
    for (const result of results)
      expect(events.claims.get(stored(result).id)?.sequence).toBe(stored(result).sequence);
    // The first round is optimistic (all read the same tail); the losers' refused put, claim move and
    // ticket are the price, once: at most three writes each beyond a quiet publish's two.
    expect(events.writes.length).toBeLessThanOrEqual(128 * 2 + 127 * 3);
  });

  it('gives up after PUBLISH_SEQUENCE_TRIES refused puts and ends its claim, so the resend is stored at once', async () => {
    const alwaysTaken: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        insertEvent: async (event) => {
          events.writes.push('PutItem');
          return { created: false, occupant: `rival-${event.sequence}` };
        },
      },
    };
    await expect(storeInLog(alwaysTaken, draft(1), body)).rejects.toThrow(BusyError);
    expect(events.writes.filter((write) => write === 'PutItem')).toHaveLength(PUBLISH_SEQUENCE_TRIES);
    expect(events.events.size).toBe(0);
    expect(events.claims.get(draft(1).id)?.claimedAt).toBe(clock.now() - CLAIM_LEASE_MS);
    clock.advance(1_000);
    const resent = await storeInLog(deps, draft(1), body);
    expect(resent).toMatchObject({ created: true, event: { id: draft(1).id } });
  });

  it('gives up once its budget of elapsed time passed, slow rounds counted', async () => {
    const ROUND_MS = 300;
    const began = clock.now();
    const slow: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        insertEvent: async (event) => {
          clock.advance(ROUND_MS);
          return { created: false, occupant: `rival-${event.sequence}` };
        },
      },
    };
    await expect(storeInLog(slow, draft(1), body)).rejects.toThrow(BusyError);
    expect(clock.now() - began).toBeGreaterThanOrEqual(PUBLISH_BUDGET_MS);
    expect(clock.now() - began).toBeLessThan(PUBLISH_BUDGET_MS + ROUND_MS);
    expect(events.claims.get(draft(1).id)?.claimedAt).toBe(clock.now() - CLAIM_LEASE_MS);
  });

  it('answers busy, not the error, when ending its lease fails on giving up', async () => {
    const throttled = new Error('ProvisionedThroughputExceededException');
    const failing: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        insertEvent: async (event) => ({ created: false, occupant: `rival-${event.sequence}` }),
        // Every move to a new ticket goes through; the lease's end (a claim a lease old) fails.
        moveClaim: async (owner, claim) => {
          if (claim.claimedAt < clock.now()) throw throttled;
          return events.moveClaim(owner, claim);
        },
      },
    };
    const error = await storeInLog(failing, draft(1), body).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BusyError);
    expect((error as BusyError).cause).toBe(throttled);
    expect(events.claims.get(draft(1).id)?.claimedAt).toBe(clock.now());
  });

  it('ends its claim when a write fails after it, so the resend takes over at once and fills its sequence', async () => {
    const throttled = new Error('ProvisionedThroughputExceededException');
    const failing: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        insertEvent: async () => {
          throw throttled;
        },
      },
    };
    await expect(storeInLog(failing, draft(1), body)).rejects.toBe(throttled);
    expect(events.claims.get(draft(1).id)).toMatchObject({
      sequence: 1,
      claimedAt: clock.now() - CLAIM_LEASE_MS,
    });
    const resent = await storeInLog(deps, draft(1), body);
    expect(resent).toMatchObject({ created: true, event: { id: draft(1).id, sequence: 1 } });
    // On a hot log too: its sequence is left to the resend, which fills it.
    await events.takeTicketAbove(ORG, IBAN, 1, clock.now(), 1);
    await expect(storeInLog(failing, draft(2), body)).rejects.toBe(throttled);
    expect(events.numbering.voidsOf(ORG, IBAN)).toEqual([]);
    expect(await storeInLog(deps, draft(2), body)).toMatchObject({ created: true, event: { sequence: 3 } });
  });

  it('keeps the lease of a claim whose id was found stored at a refused sequence', async () => {
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
      },
    };
    await expect(storeInLog(ownFound, draft(1), body)).rejects.toThrow(BusyError);
    expect(events.claims.get(draft(1).id)?.claimedAt).toBe(clock.now());
  });

  it('stops without touching a claim that a resend took over meanwhile', async () => {
    const overtaking: StoreInLogDeps = {
      ...deps,
      events: {
        ...bind(),
        insertEvent: async (event) => {
          const claim = events.claims.get(draft(1).id);
          if (claim) events.claims.set(claim.id, { ...claim, owner: 'other', claimedAt: 7 });
          return { created: false, occupant: `rival-${event.sequence}` };
        },
      },
    };
    await expect(storeInLog(overtaking, draft(1), body)).rejects.toThrow(BusyError);
    expect(events.claims.get(draft(1).id)).toMatchObject({ owner: 'other', claimedAt: 7 });
  });

  it('stores concurrent publishes and their duplicates once each, at exactly 1..n, interleaved', async () => {
    const interleaved: StoreInLogDeps = {
      ...deps,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms % 3)),
    };
    const ids = Array.from({ length: 12 }, (_, i) => i);
    const send = (i: number): Promise<StoreResult | Error> =>
      storeInLog(interleaved, draft(i), body).catch((error: Error) => error);
    const first = await Promise.all([...ids, ...ids].map(send));
    const resent = await Promise.all(
      first.map((result, k) => (result instanceof BusyError ? send(k % ids.length) : result)),
    );
    expect(resent.filter((result) => !(result instanceof Error) && result.created)).toHaveLength(ids.length);
    expect(sequences()).toEqual(ids.map((i) => i + 1));
    for (const result of resent) {
      if (result instanceof Error) throw result;
      expect(events.claims.get(stored(result).id)?.sequence).toBe(stored(result).sequence);
    }
  });
});
