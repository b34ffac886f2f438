/**
 * What Herald sends to receivers, in the OpenAPI document: the webhook (its body, headers and how to
 * verify its signatures), and the organization's webhook token with the routes that show and rotate it.
 */
import { MAX_ATTEMPTS } from '#config/delivery';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '#delivery/retry-rule';
import { TEST_EVENT_HEADER } from '#delivery/test-event-rule';
import { EVENT_ID_PATTERN } from '#domain/ids';
import { X_SIGNATURE_PATTERN } from '#domain/signing/signatures';
import { ROTATION_BODY } from '#http/organizations/webhook-token-request';
import {
  anyObject,
  closed,
  constant,
  described,
  nullable,
  optional,
  ref,
  text,
  timestamp,
} from '#http/schema';
import { TOKEN_ID } from './attempts';
import { EVENT_FIELDS, SEQUENCE, TYPE_VERSION } from './events';
import type { PathItemObject } from './objects';
import { badRequest, json, ok, WEBHOOK_SIGNATURE_SCHEME, X_SIGNATURE_SCHEME } from './objects';
import { operation, type RouteDoc } from './operation';

/** `10 s`, `2 min`, `1 h 30 min`: the retry schedule in words. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  const minutes = (seconds % 3600) / 60;
  return `${Math.floor(seconds / 3600)} h${minutes === 0 ? '' : ` ${minutes} min`}`;
}

const SCHEDULE_HOURS = Math.round(DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((sum, s) => sum + s, 0) / 3600);

const WEBHOOK_DESCRIPTION = `Herald POSTs every event to the \`webhook_url\` of its account.

**Success and retries.** A 2xx answer confirms delivery. Anything else is a failed attempt: another status
(3xx too: redirects are not followed), no answer within 10 s (5 s to connect), or a refused URL. A cycle has
up to ${MAX_ATTEMPTS} attempts with increasing waits, by default (a deployment may set its own):
${DEFAULT_RETRY_SCHEDULE_SECONDS.map(duration).join(', ')}; about ${SCHEDULE_HOURS} hours in all. Every
attempt is recorded in \`webhook_deliveries\`; the receiver's body is kept up to 4 KiB.

**Same bytes every time.** The body is fixed when the event is recorded and every attempt, redeliveries
included, sends it byte for byte. Delivery is at least once and unordered: apply each event once, keyed by its
\`id\` (also \`webhook-id\`), the id recorded in the same transaction as the receiver's change and never before,
so a change that failed (answered 5xx) is applied by the retry.

**Signatures.** Each attempt is signed when it is sent, with the organization's tokens that sign at
that moment: the current one and, for the overlap after a rotation (24 h by default), the previous one.
Both headers always carry the same tokens, new first. The key of a token is the base64-decoded part after
\`whsec_\`.
- \`X-Signature: t=<webhook-timestamp>,sha256=<hex HMAC-SHA256(key, "<t>.<body>")>\`, with a second
  \`,sha256=<hex>\` during an overlap. The event's \`signature\` field shows the latest attempt's.
- Standard Webhooks, whose libraries verify it: \`webhook-id\` (the event id), \`webhook-timestamp\` (Unix
  seconds of the attempt) and \`webhook-signature\` = \`v1,<base64 HMAC-SHA256(key,
  "<webhook-id>.<webhook-timestamp>.<body>")>\`, a second one after a space during an overlap
  (\`v1,<new> v1,<old>\`).

A receiver holding either token verifies either header. To stop replays, reject a timestamp more than
5 minutes from your clock; within them, a replay finds its event's id recorded and changes nothing (a
repeat gets a 2xx). \`webhook_deliveries[].signing_keys\` names what signed each attempt: the tokens
(\`whk_…\` ids, as \`GET /webhook-token\` shows them) and the Ed25519 keys (\`whak_…\`, as
\`GET /webhook-keys\` shows them).

Verify over the raw body bytes, before parsing, and compare signatures in constant time.

**Test events.** \`POST /accounts/{iban}/test-events\` sends a type's example the same way, signed alike,
with \`${TEST_EVENT_HEADER}: true\`, \`"test": true\` and \`"sequence": null\` in the body; it is not stored and
never retried.`;

/** One entry of `webhook-signature`: a `v1` HMAC (32 bytes) or a `v1a` Ed25519 signature (64 bytes). */
const SIGNATURE_ENTRY = '(v1,[A-Za-z0-9+/]{43}=|v1a,[A-Za-z0-9+/]{86}==)';

const header = (name: string, description: string, pattern: string) =>
  ({ name, in: 'header', required: true, description, schema: { type: 'string', pattern } }) as const;

/** The webhook token as shown. */
export const TOKEN = text(
  '`whsec_` + base64 of 32 random bytes; works as-is with the Standard Webhooks libraries.',
  { pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$' },
);

/** The fields of every webhook's body; each type's webhook narrows `type` and `payload`. */
export const WEBHOOK_FIELDS = {
  id: EVENT_FIELDS.id,
  type: EVENT_FIELDS.type,
  type_version: optional(
    described(
      TYPE_VERSION,
      "The version of the type's payload schema the payload passed; absent on events published before " +
        'the catalog, and on those of a type outside it that the deployment accepted during a transition.',
    ),
  ),
  account: EVENT_FIELDS.account,
  sequence: described(
    nullable(SEQUENCE),
    "The event's place in its account's log (see the event's `sequence`); null only in a test event.",
  ),
  triggered_at: EVENT_FIELDS.triggered_at,
  payload: anyObject('Event-specific; its layout depends on `type`.'),
  _links: EVENT_FIELDS._links,
  test: optional(
    described(
      constant(true),
      'Only in a test event (`POST /accounts/{iban}/test-events`), and signed: its payload is an example, ' +
        'no money moved; acknowledge it without applying it. Absent in every real webhook.',
    ),
  ),
};

/** The body of every webhook. */
export const WEBHOOK_PAYLOAD = closed(
  WEBHOOK_FIELDS,
  "The body of a webhook: the event's main information, so the receiver needs no API call.",
);
/** The replaced token during an overlap; null otherwise. */
export const PREVIOUS_TOKEN = nullable(
  closed(
    { webhook_token: TOKEN, token_id: TOKEN_ID, expires_at: timestamp('When it stops signing') },
    'During an overlap after a rotation: the replaced token, which also signs until `expires_at`.',
  ),
);
/** The organization's webhook token(s). */
export const WEBHOOK_TOKEN = closed({
  webhook_token: TOKEN,
  token_id: TOKEN_ID,
  previous: ref('PreviousToken', PREVIOUS_TOKEN),
});

/** The schemas of the webhook and the token, merged into `components.schemas`. */
export const WEBHOOK_SCHEMAS = {
  WebhookPayload: WEBHOOK_PAYLOAD,
  PreviousToken: PREVIOUS_TOKEN,
  WebhookToken: WEBHOOK_TOKEN,
};

/** `webhooks`: the request Herald sends to receivers, its headers and how to verify it. */
export const WEBHOOKS: Readonly<Record<string, PathItemObject>> = {
  event: {
    post: {
      operationId: 'receiveEvent',
      summary: "An event, POSTed to the account's `webhook_url`",
      description: WEBHOOK_DESCRIPTION,
      tags: ['webhooks'],
      // Either signature proves the origin: a receiver verifies one of them.
      security: [{ [WEBHOOK_SIGNATURE_SCHEME]: [] }, { [X_SIGNATURE_SCHEME]: [] }],
      parameters: [
        header('User-Agent', 'Herald and its version.', '^Herald/'),
        {
          ...header(
            'X-Signature',
            '`t=<webhook-timestamp>,sha256=<hex HMAC-SHA256(key, "<t>.<body>")>`; during a rotation overlap a second `,sha256=` with the previous token. Absent when the organization turned `v1` off.',
            X_SIGNATURE_PATTERN.source,
          ),
          required: false,
        },
        header('webhook-id', 'The event id, the same on every attempt.', EVENT_ID_PATTERN.source),
        header('webhook-timestamp', 'Unix seconds of this attempt.', '^[0-9]+$'),
        header(
          'webhook-signature',
          '`v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` then `v1a,<base64 Ed25519 signature of "<id>.<timestamp>.<body>">` (verify with `GET /webhook-keys`), space-separated; during a rotation overlap a second one of the rotated scheme. An organization may turn either scheme off.',
          `^${SIGNATURE_ENTRY}( ${SIGNATURE_ENTRY}){0,3}$`,
        ),
        {
          ...header(
            TEST_EVENT_HEADER,
            "`true` on a test event only. Not signed: decide on the body's `test`, which is.",
            '^true$',
          ),
          required: false,
        },
      ],
      requestBody: { required: true, content: json(ref('WebhookPayload', WEBHOOK_PAYLOAD)) },
      responses: {
        '2XX': { description: 'Delivered; no further attempts.' },
        default: { description: 'A failed attempt; retried while the cycle has attempts left.' },
      },
    },
  },
};

/** An organization key's token routes (`manage` scope). */
export const WEBHOOK_TOKEN_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/webhook-token', {
    operationId: 'getWebhookToken',
    summary: "The organization's webhook token",
    description: 'And, during an overlap after a rotation, the previous one with its expiry.',
    tags: ['webhooks'],
    responses: { '200': ok('The token(s).', ref('WebhookToken', WEBHOOK_TOKEN)) },
  }),
  operation('POST', '/webhook-token/rotate', {
    operationId: 'rotateWebhookToken',
    summary: 'Replace the webhook token',
    description:
      'Webhooks sent during the overlap carry two signatures in `webhook-signature` and in `X-Signature`: ' +
      'new and old. `overlap_hours: 0` retires the old token at once (a leaked one): no attempt made after ' +
      'the rotation is signed with it.',
    tags: ['webhooks'],
    requestBody: ROTATION_BODY,
    responses: {
      '200': ok('The new token and the previous one.', ref('WebhookToken', WEBHOOK_TOKEN)),
      '400': badRequest('`overlap_hours` is out of range.'),
    },
  }),
];
