/** The in-memory deliveries at extra endpoints keep the adapter's contract (see the contract's notes). */
import { describe } from 'vitest';
import { InMemoryEndpointDeliveries } from '#adapters/memory/endpoint-deliveries';
import { endpointDeliveriesContract } from '../support/endpoint-deliveries-contract';

describe('deliveries at extra endpoints, in memory', () => {
  const store = new InMemoryEndpointDeliveries();
  endpointDeliveriesContract(() => store);
});
