/**
 * The components only the operator's routes use (their answers' schemas and path parameters), merged into
 * the document's `components` beside the routes of `admin.ts`.
 */

import { KEY_SCOPE } from '#http/organizations/api-key-request';
import { CURSOR } from '#http/paging';
import {
  array,
  closed,
  EVENT_ID,
  flag,
  int,
  nullable,
  optional,
  ref,
  string,
  text,
  timestamp,
} from '#http/schema';
import { TOKEN_ID } from './attempts';
import type { ParameterObject } from './objects';
import { PREVIOUS_TOKEN, TOKEN } from './webhooks';

const MORE = flag('Events remain: send the request again with `cursor`.');

/** An organization as the operator reads it, with its webhook token(s). */
export const ORGANIZATION = closed({
  id: text('Organization id.'),
  name: text('Name.'),
  created_at: timestamp('When it was created'),
  webhook_token: TOKEN,
  token_id: TOKEN_ID,
  previous: ref('PreviousToken', PREVIOUS_TOKEN),
});
/** A new organization, with its first API key (shown only here). */
export const CREATED_ORGANIZATION = closed({
  id: text('Organization id.'),
  name: text('Name.'),
  webhook_token: TOKEN,
  token_id: TOKEN_ID,
  api_key: text('The first API key (scope `manage`), shown only here.', { pattern: '^herald_' }),
});
/** An API key, without its secret but when it is created. */
export const API_KEY = closed({
  id: text('Key id, for listing and revoking.'),
  name: text('What the key is for.'),
  scope: ref('KeyScope', KEY_SCOPE),
  created_at: timestamp('When it was issued'),
  expires_at: optional(timestamp('When it stops working (short-lived keys only)')),
  api_key: optional(text('The secret, shown only when the key is created.', { pattern: '^herald_' })),
});
/** What one step of deleting an account (and erasing its events) did. */
export const ACCOUNT_ERASURE = closed({
  iban: text('The account.'),
  org_id: text('Its organization: name it as `org` in the following requests.'),
  deleted: flag('This request deleted the account (false once it is gone).'),
  erased_events: int('Events this request erased.', 0),
  erased_notices: int(
    'Operational notices naming the account this request erased (once its events are gone).',
    0,
  ),
  more: MORE,
  cursor: optional(CURSOR),
});
/** What one requeue request queued. */
export const REQUEUE = closed({
  queued: array(EVENT_ID, { description: 'Ids of the events queued again.' }),
  more: MORE,
  cursor: optional(CURSOR),
});
/** What one step of the status-index upgrade did. */
export const INDEX_UPGRADE = closed({
  indexed: int('Events this request put into a status index.', 0),
  more: MORE,
  cursor: optional(CURSOR),
});
/** Where the organization's usage key was registered. */
export const USAGE_KEY = closed({
  org_id: text('The organization.'),
  usage_plan_id: nullable(
    string({
      description: 'The plan its key is in; null where there is none (the local runtime meters by itself).',
    }),
  ),
});

/** The schemas of the operator's routes, merged into `components.schemas`. */
export const ADMIN_SCHEMAS = {
  Organization: ORGANIZATION,
  CreatedOrganization: CREATED_ORGANIZATION,
  KeyScope: KEY_SCOPE,
  ApiKey: API_KEY,
  AccountErasure: ACCOUNT_ERASURE,
  Requeue: REQUEUE,
  IndexUpgrade: INDEX_UPGRADE,
  UsageKey: USAGE_KEY,
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
