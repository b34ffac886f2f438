/**
 * The component schemas and parameters of the publishing, administration and `manage` routes (their
 * operations are in `openapi-admin.ts`).
 */
import { KEY_SCOPES } from '#config/routes';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS } from '#domain/signing/webhook-token';
import { closed, EVENT_ID, type JsonSchema, schemaRef, text, timestamp } from './openapi-schemas';

/** The webhook token as shown. */
export const TOKEN = text(
  '`whsec_` + base64 of 32 random bytes; works as-is with the Standard Webhooks libraries.',
  {
    pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
  },
);
/** The optional body of a rotation. */
export const OVERLAP = {
  type: 'object',
  additionalProperties: false,
  properties: {
    overlap_hours: {
      type: 'number',
      minimum: 0,
      maximum: MAX_OVERLAP_HOURS,
      default: DEFAULT_OVERLAP_HOURS,
      description: 'How long the replaced token keeps signing webhooks too; 0 ends it at once.',
    },
  },
};
/** A settable webhook URL. */
export const ACCOUNT_URL = {
  type: ['string', 'null'],
  format: 'uri',
  description: 'Where webhooks go; absent or null: events are recorded as `skipped`.',
};

/** Schemas of these routes, merged into `components.schemas`. */
export const ADMIN_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  PublishRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['account', 'type', 'payload'],
    properties: {
      account: text('IBAN of a registered account; any case, blanks allowed.'),
      type: schemaRef('EventType'),
      payload: { type: 'object', description: 'A JSON object, at most 64 KiB serialised.' },
      id: { ...EVENT_ID, description: 'Makes publishing idempotent; a new UUID v7 when absent.' },
      triggered_at: text('ISO 8601 with a zone, e.g. `2026-11-21T12:00:00Z`; now when absent.'),
    },
  },
  Organization: closed({
    id: text('Organization id.'),
    name: text('Name.'),
    created_at: timestamp('When it was created'),
    webhook_token: TOKEN,
    previous: schemaRef('PreviousToken'),
  }),
  CreatedOrganization: closed({
    id: text('Organization id.'),
    name: text('Name.'),
    webhook_token: TOKEN,
    api_key: text('The first API key (scope `manage`), shown only here.', { pattern: '^herald_' }),
  }),
  PreviousToken: {
    type: ['object', 'null'],
    description:
      'During an overlap after a rotation: the replaced token, which also signs until `expires_at`.',
    additionalProperties: false,
    required: ['webhook_token', 'expires_at'],
    properties: { webhook_token: TOKEN, expires_at: timestamp('When it stops signing') },
  },
  WebhookToken: closed({ webhook_token: TOKEN, previous: schemaRef('PreviousToken') }),
  KeyScope: text(
    '`read`: events and accounts. `manage`: also redeliver and change endpoints and the token.',
    {
      enum: [...KEY_SCOPES],
    },
  ),
  ApiKey: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'name', 'scope', 'created_at'],
    properties: {
      id: text('Key id, for listing and revoking.'),
      name: text('What the key is for.'),
      scope: schemaRef('KeyScope'),
      created_at: timestamp('When it was issued'),
      expires_at: timestamp('When it stops working (short-lived keys only)'),
      api_key: text('The secret, shown only when the key is created.', { pattern: '^herald_' }),
    },
  },
};

/** Path parameters of these routes, merged into `components.parameters`. */
export const ADMIN_PARAMETERS = {
  OrgId: {
    name: 'org',
    in: 'path',
    required: true,
    description: 'Organization id.',
    schema: { type: 'string' },
  },
  KeyId: {
    name: 'key_id',
    in: 'path',
    required: true,
    description: 'API key id.',
    schema: { type: 'string' },
  },
} as const;
