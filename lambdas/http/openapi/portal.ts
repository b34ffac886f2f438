/**
 * The webhook portal in the OpenAPI document: the page, its sign-in, and the operator's route that mints
 * sign-in links (listed with the other operator routes, `ADMIN_ROUTES`).
 */
import { SESSION_MINUTES } from '#domain/portal-access';
import { KEY_SCOPE } from '#http/organizations/api-key-request';
import {
  PORTAL_LINK_BODY,
  PORTAL_LINK_REQUEST,
  PORTAL_SESSION_BODY,
  PORTAL_SESSION_REQUEST,
} from '#http/portal/portal-request';
import { closed, ref, text, timestamp, uri } from '#http/schema';
import type { OperationObject } from './objects';
import { badRequest, notFound, ok, parameterRef, responseRef } from './objects';
import { operation, type RouteDoc } from './operation';

/** A one-time sign-in link. */
export const PORTAL_LINK = closed({
  url: uri('`<base>/portal#token=<token>`: opens the portal and signs in once.'),
  expires_at: timestamp('When the link stops working'),
});
/** A portal session: its key and what it may do. */
export const PORTAL_SESSION = closed({
  api_key: text("A session API key of the link's organization and scope; send it as a Bearer key."),
  scope: ref('KeyScope', KEY_SCOPE),
  expires_at: text('When the session key stops working, ISO 8601 UTC.', { format: 'date-time' }),
  org: closed({ id: text('Organization id.'), name: text('Organization name.') }),
});

/** The portal's component schemas, merged into `components.schemas`. */
export const PORTAL_SCHEMAS = {
  PortalLinkRequest: PORTAL_LINK_REQUEST,
  PortalLink: PORTAL_LINK,
  PortalSessionRequest: PORTAL_SESSION_REQUEST,
  PortalSession: PORTAL_SESSION,
};

/** The portal page and its sign-in. */
export const PORTAL_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/portal', {
    operationId: 'portal',
    summary: 'The webhook portal (a single HTML page)',
    description:
      'Self-contained: script and style are inline and allowed by hash in a strict Content-Security-Policy; ' +
      'the page calls only this API. Sign in with a portal link or by pasting an API key.',
    tags: ['portal'],
    responses: {
      '200': { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } },
    },
  }),
  operation('POST', '/portal/session', {
    operationId: 'openPortalSession',
    summary: "Exchange a portal link's token for a session key",
    description:
      "A link works once: the exchange deletes it. The session key has the link's organization and scope " +
      `and expires after ${SESSION_MINUTES} minutes.`,
    tags: ['portal'],
    requestBody: PORTAL_SESSION_BODY,
    responses: {
      '201': ok('Signed in.', ref('PortalSession', PORTAL_SESSION)),
      '400': badRequest('The body is not JSON or has no `token`.'),
      '401': responseRef('Unauthorized', 'The link expired, was already used, or never existed.'),
    },
  }),
  operation('DELETE', '/portal/session', {
    operationId: 'closePortalSession',
    summary: 'Sign out: the session key revokes itself',
    description:
      'Send the session key as the Bearer key. It is deleted at once; API Gateway may still accept it ' +
      'for the rest of its cached authorizer decision (60 s at most), then it answers 401. Only portal ' +
      'session keys may do this (any scope); other keys are revoked by an operator. Signing out twice is ' +
      'not an error.',
    tags: ['portal'],
    responses: {
      '204': { description: 'Signed out; no body.' },
      '403': responseRef('Forbidden', 'The key is not a portal session key.'),
    },
  }),
];

/** The operator's `createPortalLink` route (its method and path are in `ADMIN_ROUTES`). */
export const PORTAL_LINK_DOC: Omit<OperationObject, 'operationId' | 'security'> = {
  summary: 'Mint a one-time portal sign-in link (operators, IAM)',
  description:
    "Only the hash of the link's token is stored. Give the `url` to one person of the organization; " +
    'it signs in once, before `expires_at`.',
  tags: ['portal'],
  parameters: [parameterRef('OrgId')],
  requestBody: PORTAL_LINK_BODY,
  responses: {
    '201': ok('The link.', ref('PortalLink', PORTAL_LINK)),
    '400': badRequest('`scope` or `ttl_minutes` is missing or invalid, or a field is unknown.'),
    '404': notFound('No such organization.'),
  },
};
