/**
 * The simulation's fan-out: accounts with two extra endpoints each, every event routed to all three and
 * delivered at each through the real consumer code over metered delivery items, charged as the DynamoDB
 * adapters write (`npm run bench -- capacity` measures the same writes on DynamoDB Local).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fastReceiver, hangingReceiver } from '../../../scripts/bench/simulate/receivers/receivers';
import { runConsumerScenario } from '../../../scripts/bench/simulate/scenarios/consumer';
import { atEndpoint, type ConsumerRun } from '../../../scripts/bench/simulate/scenarios/consumer-run';
import { scenarioEndpointUrl } from '../../../scripts/bench/simulate/scenarios/consumer-scenario';

const ACCOUNTS = 20;
const EVENTS = 100;
/** Extra endpoint `j` of account `i` is endpoint `ACCOUNTS + 2i + j`. */
const endpointsOf = (account: number) => [account, ACCOUNTS + 2 * account, ACCOUNTS + 2 * account + 1];

describe('fan-out scenario (20 accounts × 3 endpoints, 100 events, every receiver fast)', () => {
  let run: ConsumerRun;
  beforeAll(async () => {
    run = await runConsumerScenario({ events: EVENTS, accounts: ACCOUNTS, extraEndpoints: 2 });
  });

  it('delivers every event once at each of its account’s three endpoints and settles it success', () => {
    expect(run.engineErrors).toEqual([]);
    expect(run.batchErrors).toEqual([]);
    expect([...run.dynamo.unmetered]).toEqual([]);
    expect(run.events).toHaveLength(EVENTS);
    for (const event of run.events) {
      expect(event.webhookStatus).toBe('success');
      expect(event.routes).toHaveLength(3);
      const account = run.accountIndex.get(event.account) ?? -1;
      for (const endpoint of endpointsOf(account)) {
        expect(run.deliveredAtEndpoint.has(atEndpoint(event.id, scenarioEndpointUrl(endpoint)))).toBe(true);
      }
    }
    expect(run.deliveredAtEndpoint.size).toBe(3 * EVENTS);
    expect(run.outcomes).toEqual({ routed: EVENTS, delivered: 3 * EVENTS });
  });

  it('charges the writes the DynamoDB adapters make: the routing, per endpoint a lease, an attempt and a count, and the last settle', () => {
    const writes = (operation: string) => run.dynamo.of(`consumer.${operation}`).writeUnits / EVENTS;
    expect(writes('events.recordRoutes')).toBe(1);
    expect(writes('deliveries.takeLease')).toBe(3);
    expect(writes('deliveries.recordAttempt')).toBe(3);
    // Three counts, and the second write of the one that counted the last endpoint.
    expect(writes('events.settleRoute')).toBe(4);
    // One consistent Query of the account's partition: its item and two endpoints, under 4 KB.
    const list = run.dynamo.of('consumer.endpoints.listEndpoints');
    expect(list.calls).toBeGreaterThan(0);
    expect(list.readUnits).toBe(list.calls);
  });
});

describe('fan-out scenario with a hanging extra endpoint', () => {
  it('delivers every event at its account’s healthy endpoints, the hanging one’s neighbours included', async () => {
    const hanging = ACCOUNTS;
    const run = await runConsumerScenario({
      events: EVENTS,
      accounts: ACCOUNTS,
      extraEndpoints: 2,
      receiver: (index) => (index === hanging ? hangingReceiver() : fastReceiver()),
      stopAtDeliveryOf: () => true,
      awaitEndpoint: (index) => index !== hanging,
    });
    expect(run.batchErrors).toEqual([]);
    for (const event of run.events) {
      for (const endpoint of endpointsOf(run.accountIndex.get(event.account) ?? -1)) {
        const key = atEndpoint(event.id, scenarioEndpointUrl(endpoint));
        expect(run.deliveredAtEndpoint.has(key)).toBe(endpoint !== hanging);
      }
    }
  });
});
