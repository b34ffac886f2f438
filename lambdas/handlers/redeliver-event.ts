import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { parseReplayRequest } from '#http/accounts/feed-request';
import { toReplayView } from '#http/accounts/feed-view';
import { parseEventId } from '#http/events/event-request';
import { toRedeliveryView } from '#http/events/redelivery-view';
import { orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { redeliverEvent } from '#use-cases/events/redeliver-events';
import { replayAccount } from '#use-cases/events/replay';
import { apiHandler } from './api-handler';
import { redeliveryWiring } from './redelivery-deps';

const { deps: redelivery, documents, tableName } = redeliveryWiring();
const deps = { ...redelivery, directory: new DynamoDirectoryStore(documents, tableName) };

/**
 * `POST /events/{id}/redeliver`: a new cycle of up to 20 attempts for a failed, skipped or delivered
 * event, the next attempt now for a pending one; and `POST /accounts/{iban}/replay`: the account's events
 * after a sequence sent again, a chunk at a time.
 */
export const handler = apiHandler(async (event) => {
  if (event.resource === '/accounts/{iban}/replay') {
    const { afterSequence } = parseReplayRequest(event);
    const result = await replayAccount(deps, orgIdOf(event), pathParam(event, 'iban'), afterSequence);
    return json(202, toReplayView(result));
  }
  const id = parseEventId(event);
  return json(202, toRedeliveryView(await redeliverEvent(deps, orgIdOf(event), id)));
});
