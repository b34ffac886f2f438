import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-key-store';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoPortalLinkStore } from '#adapters/dynamodb/portal-link-store';
import { loadEnv } from '#config/env';
import { parsePortalSessionRequest } from '#http/portal/portal-request';
import { toPortalSessionView } from '#http/portal/portal-view';
import { bearerKeyOf, keyIdOf, orgIdOf } from '#http/request';
import { json, noContent } from '#http/response';
import { closePortalSession, openPortalSession } from '#use-cases/organizations/portal-access';
import { apiHandler } from './api-handler';

const env = loadEnv(['TABLE_NAME']);
const client = createDocumentClient();
const ports = {
  directory: new DynamoDirectoryStore(client, env.TABLE_NAME),
  apiKeys: new DynamoApiKeyStore(client, env.TABLE_NAME),
  links: new DynamoPortalLinkStore(client, env.TABLE_NAME),
};

/**
 * The portal's session. `POST /portal/session` (no key) exchanges a portal link's token, sent in the JSON
 * body so it never appears in a URL or an access log, for a session API key; `DELETE /portal/session`
 * (the session's own key) signs out by revoking that key. The event is never logged, even with
 * POWERTOOLS_LOGGER_LOG_EVENT set: it carries a sign-in token or a session key.
 */
export const handler = apiHandler(
  async (event) => {
    if (event.httpMethod === 'DELETE') {
      const caller = { orgId: orgIdOf(event), keyId: keyIdOf(event), secret: bearerKeyOf(event) };
      await closePortalSession(ports.apiKeys, caller);
      return noContent();
    }
    const { token } = parsePortalSessionRequest(event);
    return json(201, toPortalSessionView(await openPortalSession(ports, token)));
  },
  { logEvent: false },
);
