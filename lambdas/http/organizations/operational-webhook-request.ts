/**
 * The body of `PUT /operational-webhook` (and the operator's twin): `{"url": "https://…"}` sets where the
 * organization's operational notices go, `{"url": null}` removes it, `{}` keeps what is stored.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { readBody } from '#http/read-request';
import { body, closed, nullable, optional, text, withReason } from '#http/schema';

/** The operational webhook's URL as set. */
const OPERATIONAL_URL = withReason(
  nullable(
    text(
      "Where the organization's operational notices are POSTed, checked as every webhook URL is (the " +
        "deployment's URL policy, then its host). Absent: the stored URL stays; null: removed, notices are " +
        'then only listed.',
      { format: 'uri', minLength: 1 },
    ),
  ),
  'must be a URL string, or null to stop sending notices (leave it out to keep the stored URL)',
);

/** The body of an operational webhook setting. */
export const OPERATIONAL_WEBHOOK_BODY = body(closed({ url: optional(OPERATIONAL_URL) }));

/** What a setting changes: a URL replaces the stored one, null removes it, absent keeps it. */
export interface OperationalWebhookChange {
  readonly url?: string | null;
}

/**
 * The body by {@link OPERATIONAL_WEBHOOK_BODY}; the URL's policy is checked by the use-case.
 *
 * @throws ValidationError naming `url` or an unknown field
 */
export function parseOperationalWebhook(event: APIGatewayProxyEvent): OperationalWebhookChange {
  const { url } = readBody(event, OPERATIONAL_WEBHOOK_BODY);
  return url === undefined ? {} : { url };
}
