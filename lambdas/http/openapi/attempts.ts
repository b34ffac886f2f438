/**
 * An event's delivery in the OpenAPI document: one attempt (and the ids of what signed it), the endpoint
 * it went to, and the event's part at each endpoint it was routed to; the event views of `events.ts`, the
 * test event's answer and the token and key views take them from here.
 */
import { SIGNING_KEY_ID_PATTERN } from '#domain/signing/signing-keys';
import { TOKEN_ID_PATTERN } from '#domain/signing/webhook-token';
import {
  array,
  closed,
  described,
  ENDPOINT_ID,
  int,
  nullable,
  oneOf,
  ref,
  text,
  timestamp,
  uri,
  WEBHOOK_STATUS,
} from '#http/schema';

/** A webhook token's id, as attempts and token views show it. */
export const TOKEN_ID = text(
  'Id of a webhook token (`token_id` in token views): `whk_` + the first 8 bytes of the SHA-256 of the token, in hex. Not secret.',
  {
    pattern: TOKEN_ID_PATTERN.source,
  },
);

/** An Ed25519 signing key's id, as attempts and `GET /webhook-keys` show it. */
export const SIGNING_KEY_ID = text(
  'Id of an Ed25519 signing key (`key_id` of `GET /webhook-keys`): `whak_` + the first 8 bytes of the SHA-256 of its `whpk_…` public key, in hex. Not secret.',
  { pattern: SIGNING_KEY_ID_PATTERN.source },
);

/** The fields of one attempt. */
const DELIVERY_FIELDS = {
  delivery_at: timestamp('When the attempt started'),
  response_body: text("The receiver's body, cut to 4 KiB; without an HTTP answer, why (timeout…)."),
  response_status: int('HTTP status; 0 when no HTTP answer arrived.', 0, { maximum: 599 }),
  response_time: int('Milliseconds from sending to the end of the (cut) answer.', 0),
  url: nullable(
    uri(
      'The URL this attempt was sent to (or refused), the values of its query (and its fragment) ' +
        'replaced by `***`; null for attempts recorded before URLs were kept.',
    ),
  ),
  signing_keys: array(oneOf([TOKEN_ID, SIGNING_KEY_ID]), {
    maxItems: 4,
    description:
      'Ids of what signed this attempt, in the order of `webhook-signature`: the webhook tokens (`whk_…`, ' +
      '`v1` and `X-Signature`), new first, then the Ed25519 keys (`whak_…`, `v1a`), new first; two of a ' +
      'kind during its overlap. Empty when nothing was sent, or for attempts recorded before ids were ' +
      'kept. Attempts recorded before Ed25519 keys had ids of their own name one `whk_` + the same 16 hex ' +
      'digits as its `whak_` id.',
  }),
};
/** One attempt (of a test event, or in a published event's `webhook_deliveries`). */
export const DELIVERY = closed(DELIVERY_FIELDS, 'One delivery attempt.');

/** The endpoint an attempt or an endpoint's part of an event names. */
const ROUTED_ENDPOINT_ID = nullable(
  described(
    ENDPOINT_ID,
    'The endpoint (`GET /accounts/{iban}/endpoints`); null only for the default endpoint of an account ' +
      'created before endpoint ids and not written since, or deleted.',
  ),
);

/** One attempt in the single event view's `webhook_deliveries`: the endpoint it went to. */
export const EVENT_ATTEMPT = closed(
  { ...DELIVERY_FIELDS, endpoint_id: ROUTED_ENDPOINT_ID },
  'One delivery attempt, and the endpoint it was sent to.',
);

/** An event's delivery at one endpoint it was routed to. */
export const EVENT_ENDPOINT = closed(
  {
    endpoint_id: ROUTED_ENDPOINT_ID,
    webhook_status: ref('WebhookStatus', WEBHOOK_STATUS),
    webhook_retries: int("This endpoint's attempts over all its cycles.", 0),
    next_attempt_at: nullable(
      timestamp("While this endpoint's delivery is `pending`, when its next attempt is due; null otherwise"),
    ),
  },
  "The event's delivery at one endpoint it was routed to.",
);
