/**
 * The webhook portal's operations in the OpenAPI document: the page, its sign-in, and the operator route
 * that mints sign-in links.
 */
import { json, operation } from './openapi-paths';
import type { PathItemObject } from './openapi-schemas';
import { responseRef, schemaRef } from './openapi-schemas';

const body = (name: string) => ({ required: true, content: json(schemaRef(name)) });

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
    requestBody: body('PortalSessionRequest'),
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
    parameters: [
      {
        name: 'org',
        in: 'path',
        required: true,
        description: 'Organization id.',
        schema: { type: 'string' },
      },
    ],
    requestBody: body('PortalLinkRequest'),
    responses: {
      '201': { description: 'The link.', content: json(schemaRef('PortalLink')) },
      '400': responseRef('BadRequest', '`scope` or `ttl_minutes` is missing or invalid.'),
      '404': responseRef('NotFound', 'No such organization.'),
    },
  }),
};
