/**
 * Everything `deliverEvent`/`deliverBatch` need, wired from the fakes with one injected clock: the
 * use-case tests' one arrangement.
 */

import { InMemoryEndpointDeliveries } from '#adapters/memory/endpoint-deliveries';
import { InMemoryOperationalLog } from '#adapters/memory/operational-log';
import type { BatchDeps } from '#delivery/deliver-batch';
import type { DeliveryOutcome } from '#delivery/delivery-outcome';
import { DEFAULT_HEALTH_POLICY, type HealthPolicy } from '#delivery/endpoint-health-rule';
import { type FakeClock, fakeClock } from './clock';
import { FakeDeliveryQueue } from './delivery-queue';
import { InMemoryDirectoryStore } from './directory-store';
import { FakeEndpointHealthStore } from './endpoint-health-store';
import { InMemoryEventStore } from './event-store';
import { FakeWebhookSender } from './webhook-sender';

/** The fakes behind a {@link BatchDeps}, for arrangements and assertions. */
export interface DeliveryWorld {
  readonly deps: BatchDeps;
  readonly clock: FakeClock;
  readonly events: InMemoryEventStore;
  readonly deliveries: InMemoryEndpointDeliveries;
  readonly directory: InMemoryDirectoryStore;
  readonly health: FakeEndpointHealthStore;
  /** The organizations' operational notices. */
  readonly notices: InMemoryOperationalLog;
  readonly sender: FakeWebhookSender;
  readonly queue: FakeDeliveryQueue;
  readonly outcomes: DeliveryOutcome[];
  /** Errors the batch reported (malformed or failing messages). */
  readonly errors: unknown[];
  readonly iban: string;
}

/** The default schedule of the tests: 10 s, then 30 s for every later wait. */
export const TEST_SCHEDULE = [10, ...Array.from({ length: 18 }, () => 30)];

/** A world with one organization and one account whose webhook URL is set. */
export function deliveryWorld(policy: Partial<HealthPolicy> = {}): DeliveryWorld {
  const clock = fakeClock();
  const events = new InMemoryEventStore();
  const deliveries = new InMemoryEndpointDeliveries();
  const health = new FakeEndpointHealthStore();
  const notices = new InMemoryOperationalLog();
  const directory = new InMemoryDirectoryStore(health);
  const sender = new FakeWebhookSender();
  const queue = new FakeDeliveryQueue();
  const outcomes: DeliveryOutcome[] = [];
  const errors: unknown[] = [];
  const iban = 'DE89370400440532013000';
  directory.addOrganization();
  directory.addAccount({ iban, webhookUrl: 'https://hooks.example.com/herald' });
  const deps: BatchDeps = {
    events,
    deliveries,
    directory,
    health,
    notices,
    healthPolicy: { ...DEFAULT_HEALTH_POLICY, ...policy },
    sender,
    queue,
    schedule: TEST_SCHEDULE,
    maxAttempts: 20,
    urlPolicy: 'public-https',
    leaseMs: 120_000,
    now: clock.now,
    random: () => 0,
    replaceAtReceiveCount: 18,
    replaceAfterAgeSeconds: 13 * 24 * 3600,
    observe: (_id, outcome) => outcomes.push(outcome),
    observeError: (_messageId, error) => errors.push(error),
  };
  return {
    deps,
    clock,
    events,
    deliveries,
    directory,
    health,
    notices,
    sender,
    queue,
    outcomes,
    errors,
    iban,
  };
}
