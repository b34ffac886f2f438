import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoPortalLinkStore } from '#adapters/dynamodb/portal-link-store';
import { loadEnv } from '#config/env';
import { parsePortalSessionRequest } from '#http/portal/portal-request';
import { toPortalSessionView } from '#http/portal/portal-view';
import { json } from '#http/response';
import { openPortalSession } from '#use-cases/organizations/portal-access';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME']);
const client = createDocumentClient();
const ports = {
  directory: new DynamoDirectoryStore(client, env.TABLE_NAME),
  apiKeys: new DynamoApiKeyStore(client, env.TABLE_NAME),
  links: new DynamoPortalLinkStore(client, env.TABLE_NAME),
};

/**
 * `POST /portal/session` (no key): exchanges a portal link's token, sent in the JSON body so it never
 * appears in a URL or an access log, for a session API key. The event is never logged, even with
 * POWERTOOLS_LOGGER_LOG_EVENT set: its body carries a sign-in token.
 */
export const handler = apiHandler(
  async (event) => {
    const { token } = parsePortalSessionRequest(event);
    return json(201, toPortalSessionView(await openPortalSession(ports, token)));
  },
  { logEvent: false },
);
