import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { DynamoTestEventAllowance } from '#adapters/dynamodb/test-event-allowance';
import { logger } from '#adapters/observability';
import { loadEnv } from '#config/env';
import { ADMIN_ROUTES } from '#config/routes';
import { sendTestEvent, type TestEventDeps } from '#delivery/test-event';
import { parseTestEventRequest } from '#http/accounts/test-event-request';
import { toTestEventView } from '#http/accounts/test-event-view';
import { baseUrlOf, orgIdOf, pathParam } from '#http/request';
import { json } from '#http/response';
import { createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { apiHandler } from './api-handler';
import { WEBHOOK_SENDING_ENV, webhookSendingDeps } from './webhook-sending-deps';

const env = loadEnv([...WEBHOOK_SENDING_ENV, 'PUBLIC_BASE_URL']);
const documents = createDocumentClient();
// The consumer's own parts: a test goes out exactly as an attempt does, with the same timeouts.
const { timeouts: _timeouts, ...sending } = webhookSendingDeps(env, documents);
const deps: TestEventDeps = {
  directory: new DynamoDirectoryStore(documents, env.TABLE_NAME),
  ...sending,
  allowance: new DynamoTestEventAllowance(documents, env.TABLE_NAME),
  // The built-in types and the operators'; a type's head read at every test (rare, rate-limited), so a
  // version registered a moment ago can be tested at once.
  catalog: createEventTypeCatalog({
    store: new DynamoEventTypeStore(documents, env.TABLE_NAME),
    now: Date.now,
  }),
  now: Date.now,
};

/**
 * `POST /accounts/{iban}/test-events` (a `manage` key, its organization's accounts) and the operator's
 * `POST /admin/accounts/{iban}/test-events` (SigV4, any account, signed as its organization): a type's
 * example sent to the account's webhook URL (or the endpoint `endpoint_id` names) now, answered with what
 * the receiver answered.
 */
export const handler = apiHandler(async (event) => {
  const operator = event.resource === ADMIN_ROUTES.adminSendTestEvent.path;
  const sent = await sendTestEvent(deps, {
    ...parseTestEventRequest(event),
    orgId: operator ? undefined : orgIdOf(event),
    iban: pathParam(event, 'iban'),
    baseUrl: baseUrlOf(event, env.PUBLIC_BASE_URL),
  });
  const { responseStatus, responseTimeMs } = sent.attempt;
  // The IBAN as parsed, which the logger masks whatever the caller's spelling of the path.
  const { account } = sent;
  logger.info('Test event', {
    testEventId: sent.id,
    account,
    type: sent.type,
    responseStatus,
    responseTimeMs,
  });
  if (sent.error !== undefined) {
    // Answered as status 0 saying why in short; the error itself is for the operator.
    logger.error('Test event not sent', { testEventId: sent.id, account, error: sent.error });
  }
  return json(200, toTestEventView(sent));
});
