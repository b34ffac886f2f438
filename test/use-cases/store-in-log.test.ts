/**
 * The publish protocol (`storeInLog`) with the in-memory store: gap-free sequences under concurrent
 * publishes, duplicate ids racing, orphan claims of crashed publishes, old-layout events and the floor.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CLAIM_LEASE_MS,
  PUBLISH_BACKOFF_BUDGET_MS,
  PUBLISH_BACKOFF_CAP_MS,
  PUBLISH_SEQUENCE_TRIES,
} from '#config/limits';
import { BusyError } from '#domain/errors';
import {
  type EventDraft,
  lostRoundWait,
  type StoreInLogDeps,
  type StoreResult,
  storeInLog,
} from '#use-cases/events/store-in-log';
import { FakeClock } from '../support/fakes/clock';
import { InMemoryEventStore } from '../support/fakes/event-store';

const ORG = 'org-1';
const IBAN = 'DE89370400440532013000';

let clock: FakeClock;
let events: InMemoryEventStore;
let sleeps: number[];
let deps: StoreInLogDeps;

beforeEach(() => {
  clock = new FakeClock();
  events = new InMemoryEventStore();
  sleeps = [];
  deps = {
    events,
    now: clock.now,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
});

function draft(n: number, overrides: Partial<EventDraft> = {}): EventDraft {
  return {
    id: `0193a7c4-1d2e-7f00-8a00-${String(n).padStart(12, '0')}`,
    orgId: ORG,
    account: IBAN,
    type: 'credit_transfer_status_change',
    triggeredAt: clock.iso(),
    webhookStatus: 'pending',
    sequenceFloor: 0,
    ...overrides,
  };
}

const body = (sequence: number) => `{"sequence":${sequence}}`;

describe('storeInLog', () => {
  it('gives concurrent publishes of one account the sequences 1..N, each body built for its own', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => storeInLog(deps, draft(i), body)));
    const stored = results.map((result) => (result.created ? result.event : undefined));
    expect(stored.map((event) => event?.sequence).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    for (const event of stored) expect(event?.body).toBe(body(event?.sequence ?? 0));
    // Every claim points at its event.
    for (const event of stored) expect(events.claims.get(event?.id ?? '')?.sequence).toBe(event?.sequence);
    // Another account's log starts at 1.
    const other = await storeInLog(deps, draft(9, { account: 'GB82WEST12345698765432' }), body);
    expect(other.created && other.event.sequence).toBe(1);
  });

  it('answers the stored event to a duplicate publish, also when both race', async () => {
    const [a, b] = await Promise.all([storeInLog(deps, draft(1), body), storeInLog(deps, draft(1), body)]);
    const created = [a, b].filter((result) => result.created);
    expect(created).toHaveLength(1);
    const other = [a, b].find((result) => !result.created);
    expect(other?.created === false && other.existing.id).toBe(draft(1).id);
    expect([...events.events.values()]).toHaveLength(1);
    const again = await storeInLog(deps, draft(1), body);
    expect(again).toMatchObject({ created: false, existing: { id: draft(1).id, sequence: 1 } });
  });

  it('takes over the claim of a crashed publish once its lease ran out, and stores at the next free sequence', async () => {
    // The crashed publish claimed sequence 1 and never stored its event; another event took 1 since.
    await events.claimId({
      id: draft(1).id,
      orgId: ORG,
      account: IBAN,
      sequence: 1,
      owner: 'crashed',
      claimedAt: clock.now(),
    });
    expect(await storeInLog(deps, draft(2), body)).toMatchObject({ created: true, event: { sequence: 1 } });
    // Within the lease the claim is another publish's, under way: the duplicate waits, then answers busy.
    await expect(storeInLog(deps, draft(1), body)).rejects.toThrow(BusyError);
    expect(sleeps.length).toBeGreaterThan(0);
    expect(events.events.has(draft(1).id)).toBe(false);
    clock.advance(CLAIM_LEASE_MS);
    const taken = await storeInLog(deps, draft(1), body);
    expect(taken).toMatchObject({ created: true, event: { id: draft(1).id, sequence: 2 } });
    expect(events.claims.get(draft(1).id)).toMatchObject({ sequence: 2 });
    expect(events.claims.get(draft(1).id)?.owner).not.toBe('crashed');
  });

  it('answers an old-layout event under the id as stored, and continues above the floor', async () => {
    const legacy = events.seed({ id: draft(1).id, orgId: ORG, account: IBAN });
    expect(await storeInLog(deps, draft(1), body)).toEqual({ created: false, existing: legacy });
    const floored = await storeInLog(deps, draft(2, { sequenceFloor: 41 }), body);
    expect(floored.created && floored.event.sequence).toBe(42);
  });

  it('answers busy when every sequence it reads is taken before it can store, leaving only its claim', async () => {
    const racing = {
      ...events,
      latestSequence: async () => 0,
      insertEvent: async () => ({ created: false as const, occupant: 'someone-else' }),
    } as unknown as StoreInLogDeps['events'];
    const bound: StoreInLogDeps['events'] = {
      latestSequence: racing.latestSequence,
      claimId: (claim) => events.claimId(claim),
      readClaim: (id) => events.readClaim(id),
      moveClaim: (owner, claim) => events.moveClaim(owner, claim),
      insertEvent: racing.insertEvent,
      readEvent: (ref) => events.readEvent(ref),
    };
    await expect(storeInLog({ ...deps, events: bound }, draft(1), body)).rejects.toThrow(BusyError);
    expect(events.events.size).toBe(0);
    expect(events.claims.has(draft(1).id)).toBe(true);
  });

  it('publishes without waiting and with one claim and one event write when nobody contends', async () => {
    await storeInLog(deps, draft(1), body);
    expect(events.writes).toEqual(['PutClaim', 'PutItem']);
    expect(sleeps).toEqual([]);
  });
});

/** Another publisher's event, stored at `sequence` of the same log. */
function rival(n: number, sequence: number): void {
  events.seed({ id: `rival-${n}`, orgId: ORG, account: IBAN, sequence });
}

describe('storeInLog under contention for one account', () => {
  it('waits a jittered time below a window that doubles per lost round, up to the cap', () => {
    const top = () => 0.999_999;
    const windows = Array.from({ length: 7 }, (_, i) => lostRoundWait(i + 1, 0, top));
    expect(windows).toEqual([9, 19, 39, 79, 159, PUBLISH_BACKOFF_CAP_MS - 1, PUBLISH_BACKOFF_CAP_MS - 1]);
    expect(lostRoundWait(3, 0, () => 0.5)).toBe(20);
    // Never past the budget, and no more waits once it is spent or every try was made.
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

  it('gives up within its wait budget, and ends its claim so the resend (same id) is stored at once', async () => {
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
    await expect(storeInLog(alwaysTaken, draft(1), body)).rejects.toThrow(BusyError);
    expect(sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(PUBLISH_BACKOFF_BUDGET_MS);
    expect(events.writes.filter((write) => write === 'PutItem')).toHaveLength(sleeps.length + 1);
    expect(events.writes.length).toBeLessThan(2 * PUBLISH_SEQUENCE_TRIES + 2);
    expect(events.events.size).toBe(0);
    // The resend is another request (another owner token), seconds later, not 30 s later.
    clock.advance(1_000);
    const resent = await storeInLog(deps, draft(1), body);
    expect(resent).toMatchObject({ created: true, event: { id: draft(1).id, sequence: 1 } });
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

/** The in-memory store as the use-case's port, each method bound (so single methods can be replaced). */
function bind(): StoreInLogDeps['events'] {
  return {
    latestSequence: (org, account) => events.latestSequence(org, account),
    claimId: (claim) => events.claimId(claim),
    readClaim: (id) => events.readClaim(id),
    moveClaim: (owner, claim) => events.moveClaim(owner, claim),
    insertEvent: (event) => events.insertEvent(event),
    readEvent: (ref) => events.readEvent(ref),
  };
}
