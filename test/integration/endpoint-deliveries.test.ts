/** Deliveries at extra endpoints against DynamoDB Local keep the contract the in-memory store keeps. */
import { afterAll, beforeAll, describe } from 'vitest';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { endpointDeliveriesContract } from '../support/endpoint-deliveries-contract';
import { type IsolatedResources, isolatedResources } from '../support/resources';

let resources: IsolatedResources;
let store: DynamoEndpointDeliveries;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'endpoint-deliveries' });
  store = new DynamoEndpointDeliveries(resources.documents, resources.tableName);
});
afterAll(async () => {
  await resources?.destroy();
});

describe('deliveries at extra endpoints in DynamoDB', () => {
  endpointDeliveriesContract(() => store);
});
