/**
 * The publish protocol (`storeInLog`) with the in-memory store: gap-free sequences under concurrent
 * publishes, duplicate ids racing, orphan claims of crashed publishes, old-layout events and the floor.
 * Contention for one account's sequences: `store-in-log-contention.test.ts`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS, PUBLISH_BUDGET_MS } from '#config/limits';
import { BusyError } from '#domain/errors';
import type { IdClaim } from '#domain/ports';
import { type StoreInLogDeps, storeAllInLog, storeInLog } from '#use-cases/events/store-in-log';
import type { FakeClock } from '../support/fakes/clock';
import type { InMemoryEventStore } from '../support/fakes/event-store';
import { body, IBAN, ORG, type StoreInLogFixture, storeInLogFixture } from '../support/store-in-log-fixture';

let clock: FakeClock;
let events: InMemoryEventStore;
let sleeps: number[];
let deps: StoreInLogDeps;
let draft: StoreInLogFixture['draft'];
let bind: StoreInLogFixture['bind'];

beforeEach(() => {
  ({ clock, events, sleeps, deps, draft, bind } = storeInLogFixture());
});

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
    // At least as long as that publish may wait out contention for its sequence, in bounded looks.
    const waited = sleeps.reduce((sum, ms) => sum + ms, 0);
    expect(waited).toBeGreaterThanOrEqual(PUBLISH_BUDGET_MS);
    expect(sleeps.length).toBeLessThanOrEqual(16);
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

  it('answers busy when every sequence it tries is taken before it can store, leaving only its claim', async () => {
    const bound: StoreInLogDeps['events'] = {
      ...bind(),
      insertEvent: async (event) => ({ created: false as const, occupant: `someone-else-${event.sequence}` }),
    };
    await expect(storeInLog({ ...deps, events: bound }, draft(1), body)).rejects.toThrow(BusyError);
    expect(events.events.size).toBe(0);
    expect(events.claims.has(draft(1).id)).toBe(true);
  });

  it('finds its own claim when the claim write is retried after its answer was lost, and stores at once', async () => {
    let lost = false;
    // The write lands, then its answer is lost (a reset connection) once; the client sends it again.
    const flaky = async (claim: IdClaim) => {
      const result = await events.claimId(claim);
      if (lost) return result;
      lost = true;
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    };
    const retrying: StoreInLogDeps = {
      ...deps,
      events: { ...bind(), claimId: (claim) => flaky(claim).catch(() => flaky(claim)) },
    };
    expect(await storeInLog(retrying, draft(1), body)).toMatchObject({
      created: true,
      event: { sequence: 1 },
    });
    // A batch on the log (tickets): its entry keeps its sequence, none is given back.
    lost = false;
    const outcomes = await storeAllInLog(retrying, [
      { draft: draft(2), body },
      { draft: draft(3), body },
    ]);
    expect(outcomes).toMatchObject([
      { created: true, event: { sequence: 2 } },
      { created: true, event: { sequence: 3 } },
    ]);
    expect(sleeps).toEqual([]);
    expect(events.numbering.voidsOf(ORG, IBAN)).toEqual([]);
    // Another publish's claim of the id is still refused.
    await expect(storeInLog(deps, draft(1), body)).resolves.toMatchObject({ created: false });
  });

  it('publishes without waiting and with one claim and one event write when nobody contends', async () => {
    await storeInLog(deps, draft(1), body);
    expect(events.writes).toEqual(['PutClaim', 'PutItem']);
    expect(sleeps).toEqual([]);
  });
});
