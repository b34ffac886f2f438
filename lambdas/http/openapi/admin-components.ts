/**
 * The components only the operator's routes use (their answers' schemas and path parameters), merged into
 * the document's `components` beside the routes of `admin.ts`.
 */

import { KEY_SCOPE } from '#http/organizations/api-key-request';
import { CURSOR } from '#http/paging';
import type { JsonSchema } from '#http/schema';
import { closed, EVENT_ID, schemaRef, text, timestamp } from '#http/schema';
import { TOKEN_ID } from './events';
import type { ParameterObject } from './objects';
import { TOKEN } from './webhooks';

const MORE = { type: 'boolean', description: 'Events remain: send the request again with `cursor`.' };

/** The schemas of the operator's routes, merged into `components.schemas`. */
export const ADMIN_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Organization: closed({
    id: text('Organization id.'),
    name: text('Name.'),
    created_at: timestamp('When it was created'),
    webhook_token: TOKEN,
    token_id: TOKEN_ID,
    previous: schemaRef('PreviousToken'),
  }),
  CreatedOrganization: closed({
    id: text('Organization id.'),
    name: text('Name.'),
    webhook_token: TOKEN,
    token_id: TOKEN_ID,
    api_key: text('The first API key (scope `manage`), shown only here.', { pattern: '^herald_' }),
  }),
  KeyScope: KEY_SCOPE,
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
  AccountErasure: {
    type: 'object',
    additionalProperties: false,
    required: ['iban', 'org_id', 'deleted', 'erased_events', 'more'],
    properties: {
      iban: text('The account.'),
      org_id: text('Its organization: name it as `org` in the following requests.'),
      deleted: { type: 'boolean', description: 'This request deleted the account (false once it is gone).' },
      erased_events: { type: 'integer', minimum: 0, description: 'Events this request erased.' },
      more: MORE,
      cursor: CURSOR,
    },
  },
  Requeue: {
    type: 'object',
    additionalProperties: false,
    required: ['queued', 'more'],
    properties: {
      queued: { type: 'array', items: EVENT_ID, description: 'Ids of the events queued again.' },
      more: MORE,
      cursor: CURSOR,
    },
  },
  IndexUpgrade: {
    type: 'object',
    additionalProperties: false,
    required: ['indexed', 'more'],
    properties: {
      indexed: { type: 'integer', minimum: 0, description: 'Events this request put into a status index.' },
      more: MORE,
      cursor: CURSOR,
    },
  },
  UsageKey: closed({
    org_id: text('The organization.'),
    usage_plan_id: {
      type: ['string', 'null'],
      description: 'The plan its key is in; null where there is none (the local runtime meters by itself).',
    },
  }),
};

const pathParam = (name: string, description: string): ParameterObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** The path parameters of the operator's routes, merged into `components.parameters`. */
export const ADMIN_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  OrgId: pathParam('org', 'Organization id.'),
  KeyId: pathParam('key_id', 'API key id.'),
};
