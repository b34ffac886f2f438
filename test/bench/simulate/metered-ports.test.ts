import { describe, expect, it } from 'vitest';
import type { NewEvent } from '#domain/ports';
import { DynamoClient, DynamoThrottlingError } from '../../../scripts/bench/simulate/aws/dynamodb/client';
import { DynamoTable } from '../../../scripts/bench/simulate/aws/dynamodb/table';
import type { Scheduler } from '../../../scripts/bench/simulate/engine/scheduler';
import { meter } from '../../../scripts/bench/simulate/ports/metered';
import type { EventStoreRoles } from '../../../scripts/bench/simulate/scenarios/consumer-charges';
import { InMemoryEventStore } from '../../support/fakes/event-store';
import { simulate } from './simulate';

function meteredEvents(engine: Scheduler) {
  const table = new DynamoTable(
    { name: 'events', mode: { kind: 'on-demand' }, indexes: { 'by-org': {} } },
    engine.now,
  );
  const client = new DynamoClient(engine, table, { latency: 8 });
  const store = new InMemoryEventStore();
  const events = meter<EventStoreRoles>(store, client, 'events', {
    readEvent: (ref, options) => ({
      kind: 'read',
      key: `LOG#${ref.orgId}#${ref.account}`,
      consistent: options?.consistent ?? false,
    }),
    insertEvent: (event) => ({
      kind: 'write',
      key: `LOG#${event.orgId}#${event.account}`,
      indexes: [{ index: 'by-org', key: `ORG#${event.orgId}#EVENTS`, sizeKb: 0.2 }],
    }),
    listEvents: {
      before: (request) => ({
        kind: 'query',
        key: `ORG#${request.orgId}#EVENTS`,
        index: 'by-org',
        sizeKb: 0,
      }),
      after: (page, request) => ({
        kind: 'query',
        key: `ORG#${request.orgId}#EVENTS`,
        index: 'by-org',
        sizeKb: page.events.length * 2,
      }),
    },
  });
  return { events, store, client };
}

const ACCOUNT = 'DE89370400440532013000';
/** The `i`-th event of the account's log (sequence `i + 1`). */
const newEvent = (i: number, orgId = 'org-1', account = ACCOUNT): NewEvent => ({
  id: `e${i}`,
  orgId,
  account,
  sequence: i + 1,
  type: 'credit_transfer_status_change',
  triggeredAt: '2026-11-30T08:00:00.000Z',
  body: '{}',
  webhookStatus: 'pending',
});
const ref = (i: number) => ({ id: `e${i}`, orgId: 'org-1', account: ACCOUNT, sequence: i + 1 });

describe('metered ports', () => {
  it('charges each declared method, delays its answer by the round trip and keeps its result', async () => {
    await simulate(async (engine) => {
      const { events, client } = meteredEvents(engine);
      await events.insertEvent(newEvent(1));
      const started = engine.now();
      const found = await events.readEvent(ref(1), { consistent: true });
      expect(found?.id).toBe('e1');
      expect(engine.now() - started).toBe(8);
      await events.readEvent(ref(1));
      const page = await events.listEvents({ orgId: 'org-1', offset: 0, limit: 10 });
      expect(page.events).toHaveLength(1);
      expect(client.meter.of('events.insertEvent')).toMatchObject({
        calls: 1,
        writeUnits: 1,
        indexWriteUnits: 1,
      });
      expect(client.meter.of('events.readEvent')).toMatchObject({ calls: 2, readUnits: 1.5 });
      // The query's minimum before, then the 2 KB it returned (half a unit, eventually consistent).
      expect(client.meter.of('events.listEvents').readUnits).toBe(1);
    });
  });

  it('passes undeclared methods through and counts them, so a wiring can see what it forgot', async () => {
    await simulate(async (engine) => {
      const { events, client } = meteredEvents(engine);
      await events.insertEvent(newEvent(1));
      const before = engine.now();
      await events.settlePending(ref(1), 'failed');
      expect(engine.now()).toBe(before);
      expect(client.meter.unmetered.get('events.settlePending')).toBe(1);
    });
  });

  it("throttles a whole organization's publishes at its index partition, retries, and fails the rest", async () => {
    await simulate(async (engine) => {
      const { events, store, client } = meteredEvents(engine);
      const outcomes = await Promise.all(
        Array.from({ length: 3_000 }, (_, i) =>
          // One account each: only the organization's index partition is shared.
          events.insertEvent(newEvent(i, 'big-org', `ACCOUNT-${i}`)).then(
            () => 'stored',
            (error: unknown) => (error instanceof DynamoThrottlingError ? 'throttled' : 'other'),
          ),
        ),
      );
      const stored = outcomes.filter((o) => o === 'stored').length;
      expect(outcomes.filter((o) => o === 'other')).toEqual([]);
      expect(store.events.size).toBe(stored);
      // The backoff (up to 1 + 2 + 4 s) lets several seconds' worth of 1,000 in, not all 3,000.
      expect(stored).toBeGreaterThan(1_000);
      expect(stored).toBeLessThan(3_000);
      const counts = client.meter.of('events.insertEvent');
      expect(counts.failures).toBe(3_000 - stored);
      expect(counts.attempts).toBe(counts.calls + counts.retries);
      expect(client.meter.reasons.get('IndexWriteKeyRangeThroughputExceeded')).toBe(counts.throttles);
    });
  });
});
