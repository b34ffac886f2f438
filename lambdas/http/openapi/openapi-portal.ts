/**
 * The webhook portal's operations in the OpenAPI document: the page, its sign-in, and the operator route
 * that mints sign-in links.
 */
import { body, json, operation } from './openapi-operation';
import {
  closed,
  int,
  type JsonSchema,
  type PathItemObject,
  parameterRef,
  responseRef,
  schemaRef,
  text,
  uri,
} from './openapi-schemas';

/** `paths` of the portal. */
export const PORTAL_PATHS: Readonly<Record<string, PathItemObject>> = {
  '/portal': operation('GET', '/portal', {
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
  '/portal/session': operation('POST', '/portal/session', {
    operationId: 'openPortalSession',
    summary: "Exchange a portal link's token for a session key",
    description:
      "A link works once: the exchange deletes it. The session key has the link's organization and scope " +
      'and expires after 60 minutes.',
    tags: ['portal'],
    requestBody: body(schemaRef('PortalSessionRequest')),
    responses: {
      '201': { description: 'Signed in.', content: json(schemaRef('PortalSession')) },
      '400': responseRef('BadRequest', 'The body is not JSON or has no `token`.'),
      '401': responseRef('Unauthorized', 'The link expired, was already used, or never existed.'),
    },
  }),
  '/admin/organizations/{org}/portal-links': operation('POST', '/admin/organizations/{org}/portal-links', {
    operationId: 'createPortalLink',
    summary: 'Mint a one-time portal sign-in link (operators, IAM)',
    description:
      "Only the hash of the link's token is stored. Give the `url` to one person of the organization; " +
      'it signs in once, before `expires_at`.',
    tags: ['portal'],
    parameters: [parameterRef('OrgId')],
    requestBody: body(schemaRef('PortalLinkRequest')),
    responses: {
      '201': { description: 'The link.', content: json(schemaRef('PortalLink')) },
      '400': responseRef(
        'BadRequest',
        '`scope` or `ttl_minutes` is missing or invalid, or a field is unknown.',
      ),
      '404': responseRef('NotFound', 'No such organization.'),
    },
  }),
};

/** The portal's component schemas, merged into `components.schemas`. */
export const PORTAL_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  PortalLinkRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['scope'],
    properties: {
      scope: schemaRef('KeyScope'),
      ttl_minutes: int('How long the link signs in; default 60.', 1, { maximum: 1440 }),
    },
  },
  PortalLink: closed({
    url: uri('`<base>/portal#token=<token>`: opens the portal and signs in once.'),
    expires_at: text('When the link stops working, ISO 8601 UTC.', { format: 'date-time' }),
  }),
  PortalSessionRequest: closed({ token: text('The `token` of a portal link (its URL fragment).') }),
  PortalSession: closed({
    api_key: text("A session API key of the link's organization and scope; send it as a Bearer key."),
    scope: schemaRef('KeyScope'),
    expires_at: text('When the session key stops working, ISO 8601 UTC.', { format: 'date-time' }),
    org: closed({ id: text('Organization id.'), name: text('Organization name.') }),
  }),
};
