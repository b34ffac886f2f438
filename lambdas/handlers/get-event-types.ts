import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { loadEnv } from '#config/env';
import { createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { apiHandler } from './api-handler';
import { getEventType, listEventTypes } from './event-type-routes';

const env = loadEnv(['TABLE_NAME', 'PUBLIC_BASE_URL']);
// Heads are read at every request (a change shows at once); versions, which never change, are kept.
const catalog = createEventTypeCatalog({
  store: new DynamoEventTypeStore(createDocumentClient(), env.TABLE_NAME),
  now: Date.now,
});

/**
 * `GET /event-types` and `GET /event-types/{type}`: the catalog (built-in types and the operators'),
 * the same for every organization and any key scope.
 */
export const handler = apiHandler(async (event) =>
  event.resource === '/event-types'
    ? listEventTypes(catalog, event, env.PUBLIC_BASE_URL)
    : getEventType(catalog, event),
);
