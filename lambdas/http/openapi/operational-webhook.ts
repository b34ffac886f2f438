/**
 * The organization's operational webhook in the OpenAPI document: its schema, an organization key's
 * routes (`GET` any key, `PUT` a `manage` key) and the operator's twins (which `admin.ts` lists).
 */
import { OPERATIONAL_WEBHOOK_BODY } from '#http/organizations/operational-webhook-request';
import { closed, nullable, ref, text } from '#http/schema';
import type { ParameterObject, Reference } from './objects';
import { badRequest, ok } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';

/** The setting as shown. */
export const OPERATIONAL_WEBHOOK = closed({
  url: nullable(
    text(
      "Where the organization's operational notices are POSTed (null: nowhere; they are only listed by " +
        "`GET /operational-events`). Its query values show as `***` to a `read` key, as an account's " +
        '`webhook_url` does.',
    ),
  ),
});

/** The setting's schema, merged into `components.schemas`. */
export const OPERATIONAL_WEBHOOK_SCHEMAS = { OperationalWebhook: OPERATIONAL_WEBHOOK };

const SETTING = ok('The setting.', ref('OperationalWebhook', OPERATIONAL_WEBHOOK));

const SHOW: SharedOperation = {
  summary: "The organization's operational webhook",
  description:
    'Where notices about its endpoints (failing, disabling soon, disabled, recovered…) are sent, signed ' +
    'like every webhook.',
  responses: { '200': SETTING },
};

const SET: SharedOperation = {
  summary: "Set or remove the organization's operational webhook",
  description:
    '`{"url": "https://…"}` sets it, checked as every webhook URL is (the deployment\'s URL policy, then its ' +
    'host); `{"url": null}` removes it; `{}` keeps what is stored. Nothing is stored when the URL is refused.',
  requestBody: OPERATIONAL_WEBHOOK_BODY,
  responses: {
    '200': SETTING,
    '400': badRequest('`url` is not a URL the policy allows, or the body has another field.'),
  },
};

/** The operator's twins, by their `ADMIN_ROUTES` name, on the organization's path. */
export function adminOperationalWebhookDocs(
  orgPath: readonly ParameterObject[] | readonly Reference[],
  unknownOrg: Reference,
) {
  const onOrg = (doc: SharedOperation): SharedOperation => ({
    ...doc,
    parameters: orgPath,
    responses: { ...doc.responses, '404': unknownOrg },
  });
  return {
    getOrganizationOperationalWebhook: onOrg(SHOW),
    setOrganizationOperationalWebhook: onOrg(SET),
  };
}

/** An organization key's routes: any key reads the setting, a `manage` key changes it. */
export const OPERATIONAL_WEBHOOK_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/operational-webhook', {
    operationId: 'getOperationalWebhook',
    tags: ['webhooks'],
    ...SHOW,
  }),
  operation('PUT', '/operational-webhook', {
    operationId: 'setOperationalWebhook',
    tags: ['webhooks'],
    ...SET,
  }),
];
