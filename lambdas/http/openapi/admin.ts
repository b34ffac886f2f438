/**
 * The operator's routes (AWS IAM, SigV4) in the OpenAPI document: one entry per operation of
 * `ADMIN_ROUTES`, which gives its method, path and `operationId` (so a route the table adds is a type
 * error here until it is documented), and the schemas and parameters only they use. The chunked upkeep
 * routes answer `more` (and a `cursor`): each request's cost is bounded, the caller repeats it.
 */

import { OPERATOR_PAGES_PER_REQUEST, RESET_CHUNK } from '#config/limits';
import { ADMIN_ROUTES, type AdminOperation } from '#config/routes';
import { MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { ACCOUNT_DELETION_QUERY, ADMIN_ACCOUNT_BODY } from '#http/accounts/account-request';
import { CURSOR_BODY, REDELIVER_BODY, REQUEUE_BODY } from '#http/events/event-request';
import { API_KEY_BODY } from '#http/organizations/api-key-request';
import { ORGANIZATION_BODY } from '#http/organizations/organization-request';
import { ROTATION_BODY } from '#http/organizations/webhook-token-request';
import { ref } from '#http/schema';
import { ACCOUNT_ANSWER, ACCOUNT_LISTING, ACCOUNT_WRITE_RULE, ENABLE, ENDPOINT_BUSY } from './accounts';
import {
  ACCOUNT_ERASURE,
  API_KEY,
  CREATED_ORGANIZATION,
  INDEX_UPGRADE,
  ORGANIZATION,
  REQUEUE,
  USAGE_KEY,
} from './admin-components';
import { ENDPOINT_ADMIN_DOCS } from './endpoints';
import { EVENT_TYPE_ADMIN_DOCS } from './event-types';
import { REDELIVER_CONFLICT, REDELIVER_DESCRIPTION, REDELIVERY, RESET } from './events';
import { MIGRATE, REPLAY } from './feed';
import { badRequest, notFound, ok, parameterRef, queryParameters, responseRef } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';
import { OPERATIONAL_EVENT_LISTING } from './operational-events';
import { adminOperationalWebhookDocs } from './operational-webhook';
import { PORTAL_LINK_DOC } from './portal';
import { SEND_TEST_EVENT } from './test-events';
import { adminKeyDocs } from './webhook-keys';
import { WEBHOOK_TOKEN } from './webhooks';

/** What the document says about an operator route; its tags are `admin` unless it names others. */
type AdminDoc = SharedOperation & {
  readonly tags?: readonly string[];
};

const ORG_PATH = [parameterRef('OrgId')];
const NO_CONTENT = { description: 'Done; no body.' };
const UNKNOWN_ORG = notFound('No such organization.');
/** Every operator route, by its name in {@link ADMIN_ROUTES}. */
const ADMIN_DOCS: { readonly [K in AdminOperation]: AdminDoc } = {
  createOrganization: {
    summary: 'Create an organization with its webhook token and a first API key',
    requestBody: ORGANIZATION_BODY,
    responses: {
      '201': ok('Created.', ref('CreatedOrganization', CREATED_ORGANIZATION)),
      '400': badRequest('The name is missing or too long.'),
    },
  },
  getOrganization: {
    summary: 'One organization',
    parameters: ORG_PATH,
    responses: { '200': ok('The organization.', ref('Organization', ORGANIZATION)), '404': UNKNOWN_ORG },
  },
  createApiKey: {
    summary: 'Issue an API key',
    description: `At most ${MAX_API_KEYS_PER_ORG} keys per organization. The secret is shown only in this answer.`,
    parameters: ORG_PATH,
    requestBody: API_KEY_BODY,
    responses: {
      '201': ok('Issued.', ref('ApiKey', API_KEY)),
      '400': badRequest('A field is missing or invalid.'),
      '404': UNKNOWN_ORG,
      '409': responseRef('Conflict', 'The organization has the most keys allowed.'),
    },
  },
  listApiKeys: {
    summary: "The organization's API keys, oldest first, without secrets",
    parameters: ORG_PATH,
    responses: {
      '200': ok('The keys.', { type: 'array', items: ref('ApiKey', API_KEY) }),
      '404': UNKNOWN_ORG,
    },
  },
  revokeApiKey: {
    summary: 'Revoke an API key',
    description: 'The key answers 401 once the authorizer cache (60 s) has let go of it.',
    parameters: [...ORG_PATH, parameterRef('KeyId')],
    responses: { '204': NO_CONTENT, '404': notFound('No such key in the organization.') },
  },
  rotateOrganizationToken: {
    summary: 'Replace the webhook token',
    parameters: ORG_PATH,
    requestBody: ROTATION_BODY,
    responses: {
      '200': ok('The new token and the previous one.', ref('WebhookToken', WEBHOOK_TOKEN)),
      '400': badRequest('`overlap_hours` is out of range.'),
      '404': UNKNOWN_ORG,
    },
  },
  ...adminKeyDocs(ORG_PATH, UNKNOWN_ORG),
  ...adminOperationalWebhookDocs(ORG_PATH, UNKNOWN_ORG),
  listOrganizationOperationalEvents: {
    ...OPERATIONAL_EVENT_LISTING,
    parameters: [...ORG_PATH, ...(OPERATIONAL_EVENT_LISTING.parameters ?? [])],
    responses: { ...OPERATIONAL_EVENT_LISTING.responses, '404': UNKNOWN_ORG },
  },
  registerUsageKey: {
    summary: "Register the organization's key in the usage plan",
    description:
      'Its own throttle and quota apply once its key is in the plan. New organizations are registered ' +
      'when created; this is for those created before. Idempotent. Takes no request body.',
    parameters: ORG_PATH,
    responses: { '200': ok('Registered.', ref('UsageKey', USAGE_KEY)), '404': UNKNOWN_ORG },
  },
  createPortalLink: PORTAL_LINK_DOC,
  listOrganizationAccounts: {
    ...ACCOUNT_LISTING,
    summary: "The organization's accounts, a page at a time",
    parameters: [...ORG_PATH, ...ACCOUNT_LISTING.parameters],
  },
  requeueEvents: {
    summary: 'Queue pending events again',
    description:
      'For events the table-stream forwarder gave up on; a duplicate message is harmless. Each request ' +
      'examines up to 500 of the older events, newest first: repeat it with `cursor` while `more` is true.',
    parameters: ORG_PATH,
    requestBody: REQUEUE_BODY,
    responses: {
      '202': ok('Queued.', ref('Requeue', REQUEUE)),
      '400': badRequest('`older_than_minutes` or `cursor` is invalid.'),
    },
  },
  redeliverOrganizationEvent: {
    summary: 'Redeliver an event of the organization, or attempt a pending one now',
    description: REDELIVER_DESCRIPTION,
    parameters: [...ORG_PATH, parameterRef('EventId')],
    requestBody: REDELIVER_BODY,
    responses: {
      '202': ok('Queued.', ref('Redelivery', REDELIVERY)),
      '400': badRequest('The id is not a lower-case UUID, or `endpoint_id` is no endpoint id.'),
      '404': notFound('No such event in the organization, or it was not routed to `endpoint_id`.'),
      '409': responseRef('Conflict', REDELIVER_CONFLICT),
    },
  },
  resetOrganizationWebhooks: {
    summary: 'Redeliver the next chunk of failed or skipped events of the organization',
    description: 'As `POST /management/webhooks/reset`: send it again while `more` is true.',
    parameters: ORG_PATH,
    responses: { '202': ok('Queued.', ref('Reset', RESET)) },
  },
  migrateEvents: MIGRATE,
  indexEventStatuses: {
    summary: 'Put earlier failed and skipped events into the status indexes',
    description:
      'Once after upgrading from a version without the sparse status indexes, so that status filters ' +
      `and reset (${RESET_CHUNK} events a request) see those events. Each request examines up to ` +
      `${OPERATOR_PAGES_PER_REQUEST * 100} events; repeat it with \`cursor\` while \`more\` is true.`,
    parameters: ORG_PATH,
    requestBody: CURSOR_BODY,
    responses: {
      '200': ok('What this request did.', ref('IndexUpgrade', INDEX_UPGRADE)),
      '400': badRequest('The body or `cursor` is invalid.'),
    },
  },
  putAccount: {
    summary: 'Create or update an account',
    description: `${ACCOUNT_WRITE_RULE} Only \`org\` is required.`,
    parameters: [parameterRef('Iban')],
    requestBody: ADMIN_ACCOUNT_BODY,
    responses: {
      '200': ACCOUNT_ANSWER,
      '400': badRequest('The IBAN, organization or URL is invalid.'),
      '404': UNKNOWN_ORG,
      '409': responseRef(
        'Conflict',
        `The IBAN is another organization's, or holds its events: erase them first. Or: ${ENDPOINT_BUSY}`,
      ),
    },
  },
  deleteAccount: {
    summary: 'Delete an account, and with `erase=true` its events',
    description:
      'Without `erase` the events stay readable until they expire and the IBAN stays reserved for the ' +
      'organization (no other can be given it, so none of its events can reach one) until they are erased. ' +
      "With `erase=true` each request also erases the account's events among up to 1,000 of the organization's; " +
      'repeat it with `org` and `cursor` from the answer while `more` is true (the first deletes the account, ' +
      'the last releases the IBAN).',
    parameters: [parameterRef('Iban'), ...queryParameters(ACCOUNT_DELETION_QUERY)],
    responses: {
      '200': ok('With `erase=true`: what this request did.', ref('AccountErasure', ACCOUNT_ERASURE)),
      '204': { description: 'Deleted; no body.' },
      '400': badRequest('The IBAN, `erase` or `cursor` is invalid, or a parameter is unknown.'),
      '404': notFound('No such account (of `org`), and no erasure to go on with.'),
    },
  },
  adminEnableEndpoint: ENABLE,
  adminReplayAccount: REPLAY,
  adminSendTestEvent: SEND_TEST_EVENT,
  ...EVENT_TYPE_ADMIN_DOCS,
  ...ENDPOINT_ADMIN_DOCS,
};

/** The operator's routes, in the order of {@link ADMIN_ROUTES}. */
export const ADMIN_ROUTE_DOCS: readonly RouteDoc[] = (Object.keys(ADMIN_ROUTES) as AdminOperation[]).map(
  (operationId) => {
    const { method, path } = ADMIN_ROUTES[operationId];
    return operation(method, path, { operationId, tags: ['admin'], ...ADMIN_DOCS[operationId] });
  },
);
