import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { DynamoEndpointDeliveries } from '#adapters/dynamodb/events/endpoint-deliveries';
import { parseReplayRequest } from '#http/accounts/feed-request';
import { toReplayView } from '#http/accounts/feed-view';
import { parseEventId, parseRedeliverRequest } from '#http/events/event-request';
import { toRedeliveryView } from '#http/events/redelivery-view';
import { orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { redeliver } from '#use-cases/events/redeliver-endpoint';
import { replayAccount } from '#use-cases/events/replay';
import { apiHandler } from './api-handler';
import { redeliveryWiring } from './redelivery-deps';

const { deps: redelivery, documents, tableName } = redeliveryWiring();
const deps = {
  ...redelivery,
  directory: new DynamoDirectoryStore(documents, tableName),
  deliveries: new DynamoEndpointDeliveries(documents, tableName),
  // A replay at one endpoint checks the account has it.
  endpoints: new DynamoEndpointStore(documents, tableName),
};

/**
 * `POST /events/{id}/redeliver`: a new cycle of up to 20 attempts for a failed, skipped or delivered
 * event (or at one of its endpoints alone), the next attempt now for a pending one; and `POST /accounts/{iban}/replay`: the account's events
 * after a sequence sent again, a chunk at a time.
 */
export const handler = apiHandler(async (event) => {
  if (event.resource === '/accounts/{iban}/replay') {
    const { afterSequence, endpointId } = parseReplayRequest(event);
    const at = endpointId === undefined ? undefined : { id: endpointId, deps };
    const result = await replayAccount(deps, orgIdOf(event), pathParam(event, 'iban'), afterSequence, at);
    return json(202, toReplayView(result));
  }
  const id = parseEventId(event);
  const { endpointId } = parseRedeliverRequest(event);
  return json(202, toRedeliveryView(await redeliver(deps, orgIdOf(event), id, endpointId)));
});
