/**
 * Herald's OpenAPI 3.1 document, served at `/openapi.json`. It is the written contract for everything
 * the seed left open (ordering, paging, statuses, errors, webhook headers and signatures), so the prose
 * here and in each part (`events.ts`, `events-batch.ts`, `accounts.ts`, `feed.ts`, `webhooks.ts`, `portal.ts`, `admin.ts`,
 * `problems.ts`) is as much a part of the interface as the schemas.
 */
import { MAX_ATTEMPTS } from '#config/delivery';
import { HERALD_VERSION } from '#config/version';
import { MAX_CYCLES } from '#delivery/retry-rule';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE } from '#http/problem/problem-types';
import { closed, constant, ref, text } from '#http/schema';
import { ACCOUNT_PARAMETERS, ACCOUNT_ROUTES, ACCOUNT_SCHEMAS } from './accounts';
import { ADMIN_ROUTE_DOCS } from './admin';
import { ADMIN_PARAMETERS, ADMIN_SCHEMAS } from './admin-components';
import { ENDPOINT_PARAMETERS, ENDPOINT_ROUTES, ENDPOINT_SCHEMAS } from './endpoints';
import { catalogWebhooks } from './event-type-webhooks';
import {
  EVENT_TYPE_LINK_HEADER,
  EVENT_TYPE_PARAMETERS,
  EVENT_TYPE_ROUTES,
  EVENT_TYPE_SCHEMAS,
} from './event-types';
import { EVENT_PARAMETERS, EVENT_ROUTES, EVENT_SCHEMAS, LINK_HEADER } from './events';
import { BATCH_ROUTES, BATCH_SCHEMAS } from './events-batch';
import { FEED_LINK_HEADER, FEED_ROUTES } from './feed';
import type { OpenApiDocument } from './objects';
import {
  BEARER_SCHEME,
  json,
  ok,
  SIGV4_SCHEME,
  WEBHOOK_SIGNATURE_SCHEME,
  X_SIGNATURE_SCHEME,
} from './objects';
import { operation, pathsOf, type RouteDoc } from './operation';
import { OPERATIONAL_EVENT_ROUTES, OPERATIONAL_EVENT_SCHEMAS } from './operational-events';
import { OPERATIONAL_WEBHOOK_ROUTES, OPERATIONAL_WEBHOOK_SCHEMAS } from './operational-webhook';
import { PORTAL_ROUTES, PORTAL_SCHEMAS } from './portal';
import { PROBLEM_HEADERS, PROBLEM_SCHEMAS, RESPONSES } from './problems';
import { TEST_EVENT_ROUTES, TEST_EVENT_SCHEMAS } from './test-events';
import { WEBHOOK_KEY_ROUTES, WEBHOOK_KEY_SCHEMAS } from './webhook-keys';
import { WEBHOOK_SCHEMAS, WEBHOOK_TOKEN_ROUTES, WEBHOOKS } from './webhooks';

const API_DESCRIPTION = `Herald records the events of a banking gateway and delivers each one as a signed
webhook to the \`webhook_url\` of the account it belongs to. With an organization's API key this API reads
its events and accounts, starts redeliveries, sets webhook URLs and rotates the webhook token; with AWS IAM
the gateway publishes events (\`POST /events\`, up to 100 at once with \`POST /events/batch\`) and operators manage organizations, keys and accounts
(\`/admin/…\`).

## Authentication
An organization's routes need \`Authorization: Bearer <api key>\`, in exactly that spelling (the gateway caches
each key's decision for up to 60 s under the header's exact text). A missing, unknown, revoked or expired key
answers 401 with \`WWW-Authenticate: Bearer\`. Keys have a scope: \`read\` keys read events and accounts;
\`manage\` keys may also redeliver, reset, set webhook URLs and rotate the webhook token (a \`read\` key
answers 403 there). \`POST /events\` and the \`/admin/…\` routes are for the gateway and operators: they are
authorized by AWS IAM, signed with SigV4 (service \`execute-api\`); an unsigned request or an API key answers
403. \`/health\` and \`/openapi.json\` are public.

## Conventions
- Timestamps are UTC, rendered \`YYYY-MM-DD HH:MM:SS\` (no zone suffix; fractions of a second are cut).
- Event ids are UUIDs (version 4 or 7) in lower-case canonical form. IBANs are shown normalised: upper case,
  no blanks.
- Answers carry \`Cache-Control: no-store\`. Objects may gain fields in later versions; clients should ignore
  unknown ones.

## Listing events
\`GET /events\` lists newest first: by \`triggered_at\` descending, ties by \`id\` descending. Pages are
numbered from 1 (\`per_page\` 1 to 100, default 10). The body is a bare JSON array, so paging travels in the
RFC 8288 \`Link\` header: \`rel="first"\` always, \`rel="prev"\` after page 1, \`rel="next"\` when more events
follow; its URLs keep the request's filters and \`per_page\`. There is no total count. Pages are offsets:
events recorded between two requests shift them. Unknown or repeated query parameters answer 400 instead of
being ignored.
\`GET /accounts\` pages the same way, by IBAN ascending; once \`page × per_page\` would pass the depth
bound its \`next\` link starts again at page 1 \`after\` the last IBAN, so following \`next\` lists them all.

## Delivery state
\`webhook_status\` is \`pending\` (attempts under way or due), \`success\` (the receiver answered 2xx; final),
\`failed\` (all ${MAX_ATTEMPTS} attempts of the cycle failed) or \`skipped\` (the account has no
\`webhook_url\`; nothing was sent). \`webhook_retries\` counts the attempts of all cycles and equals the
length of \`webhook_deliveries\` (oldest first). \`response_time\` is in milliseconds; \`response_status\` is
0 when no HTTP answer arrived, and \`response_body\` then says why.

## Redelivery
\`POST /events/{id}/redeliver\` and \`POST /management/webhooks/reset\` give \`failed\` and \`skipped\` events
(the redelivery and \`POST /accounts/{iban}/replay\` \`success\` ones too) a new cycle of up to ${MAX_ATTEMPTS}
attempts and answer 202 with the ids queued. Earlier attempts stay recorded. An event has at most
${MAX_CYCLES} cycles, its first included, however few attempts each made (one that sent nothing, as for
an account without a URL, does not count): a delivered event can be sent again twice; after that a
redelivery answers 409 and a replay lists it in \`used_up\`.

## Errors
Errors are RFC 9457 \`${PROBLEM_CONTENT_TYPE}\`: \`type\` (\`${PROBLEM_TYPE_BASE}<slug>\`),
\`title\`, \`status\`, \`detail\` and \`instance\` (the request id); 400 answers add \`invalid_params: [{name,
reason}]\`. An unknown path answers 404, a known path with another method 405 with \`Allow\`, a request over
the rate limit 429. 5xx bodies never reveal the cause.

## Webhooks
See the \`event\` webhook for the request Herald sends, its headers and how to verify its signatures. Each
built-in event type has a webhook of its own (named as the type) whose body has that type's payload schema;
\`GET /event-types\` lists every type with its versions, those the operators registered included.

## Versioning
\`info.version\` is Herald's version (semantic versioning). Paths carry no version.`;

/** The webhooks of the built-in event types: the document is the same for every caller. */
const CATALOG = catalogWebhooks(BUILT_IN_EVENT_TYPES);

/** The answer of `GET /health`. */
export const HEALTH = closed({ status: constant('ok'), version: text("Herald's version.") });

/** Liveness and this document: public. */
const SERVICE_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/health', {
    operationId: 'health',
    summary: 'Liveness',
    tags: ['service'],
    responses: {
      '200': ok('The service answers.', ref('Health', HEALTH)),
    },
  }),
  operation('GET', '/openapi.json', {
    operationId: 'openapi',
    summary: 'This document',
    tags: ['service'],
    responses: {
      '200': {
        description: 'The OpenAPI 3.1 document, with this deployment as its server.',
        content: json({
          type: 'object',
          required: ['openapi', 'info', 'paths'],
          properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
        }),
      },
    },
  }),
];

/**
 * The OpenAPI 3.1 document of the API, with `baseUrl` as its only server. Pure: the same base URL
 * always gives an equal document.
 *
 * @param baseUrl - the API's public base URL, e.g. `https://api.example.com/prod`
 */
export function buildOpenApiDocument(baseUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Herald',
      version: HERALD_VERSION,
      summary: 'Event records and signed, retried webhooks for a banking gateway.',
      description: API_DESCRIPTION,
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: baseUrl.replace(/\/+$/, '') }],
    tags: [
      { name: 'events', description: 'Recorded events, read-only.' },
      { name: 'delivery', description: 'Starting webhook redeliveries.' },
      { name: 'accounts', description: 'Tracked accounts and their webhook URLs.' },
      { name: 'service', description: 'Liveness and this document; no API key needed.' },
      { name: 'publishing', description: 'Recording events (AWS IAM).' },
      {
        name: 'admin',
        description: 'Organizations, API keys, accounts and repairs, for operators (AWS IAM).',
      },
      { name: 'webhooks', description: 'What Herald sends to receivers.' },
      {
        name: 'event-types',
        description: 'The event types, each with its versioned payload schema and examples.',
      },
      { name: 'portal', description: 'The webhook portal page and its sign-in.' },
    ],
    paths: pathsOf([
      ...SERVICE_ROUTES,
      ...EVENT_ROUTES,
      ...BATCH_ROUTES,
      ...ACCOUNT_ROUTES,
      ...ENDPOINT_ROUTES,
      ...TEST_EVENT_ROUTES,
      ...FEED_ROUTES,
      ...EVENT_TYPE_ROUTES,
      ...WEBHOOK_TOKEN_ROUTES,
      ...WEBHOOK_KEY_ROUTES,
      ...OPERATIONAL_EVENT_ROUTES,
      ...OPERATIONAL_WEBHOOK_ROUTES,
      ...PORTAL_ROUTES,
      ...ADMIN_ROUTE_DOCS,
    ]),
    webhooks: { ...WEBHOOKS, ...CATALOG.webhooks },
    components: {
      schemas: {
        Health: HEALTH,
        ...EVENT_SCHEMAS,
        ...BATCH_SCHEMAS,
        ...ACCOUNT_SCHEMAS,
        ...ENDPOINT_SCHEMAS,
        ...TEST_EVENT_SCHEMAS,
        ...WEBHOOK_SCHEMAS,
        ...WEBHOOK_KEY_SCHEMAS,
        ...OPERATIONAL_EVENT_SCHEMAS,
        ...OPERATIONAL_WEBHOOK_SCHEMAS,
        ...PORTAL_SCHEMAS,
        ...ADMIN_SCHEMAS,
        ...EVENT_TYPE_SCHEMAS,
        ...CATALOG.schemas,
        ...PROBLEM_SCHEMAS,
      },
      parameters: {
        ...EVENT_PARAMETERS,
        ...ACCOUNT_PARAMETERS,
        ...ENDPOINT_PARAMETERS,
        ...ADMIN_PARAMETERS,
        ...EVENT_TYPE_PARAMETERS,
      },
      headers: { ...LINK_HEADER, ...FEED_LINK_HEADER, ...EVENT_TYPE_LINK_HEADER, ...PROBLEM_HEADERS },
      responses: RESPONSES,
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key of the organization (`herald_…`), sent as `Authorization: Bearer <api key>`.',
        },
        [SIGV4_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            "AWS Signature Version 4 (service `execute-api`, the API's region) by an AWS identity allowed `execute-api:Invoke` on the route.",
        },
        // The webhooks' schemes: Herald signs, the receiver verifies (OpenAPI has no HMAC type, so apiKey
        // names the header and the description the algorithm).
        [WEBHOOK_SIGNATURE_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'webhook-signature',
          description:
            'Standard Webhooks: `v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")>`, where ' +
            "key is the base64-decoded part of the organization's `webhook_token` after `whsec_`. Verify over the " +
            'raw body, in constant time, and refuse a `webhook-timestamp` far from your clock. `v1a,<base64>` ' +
            'entries are Ed25519 signatures of the same string, verified with a public key of `GET /webhook-keys`.',
        },
        [X_SIGNATURE_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Signature',
          description:
            "HMAC-SHA256 with the same key (the organization's `webhook_token`), in the format the webhook's " +
            '`X-Signature` header parameter gives.',
        },
      },
    },
  };
}
