/**
 * The optional body of a rotation (an organization key's `POST /webhook-token/rotate` and
 * `POST /webhook-keys/rotate`, the operator's twins): `{"overlap_hours"?}`.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS } from '#domain/signing/webhook-token';
import { readBody } from '#http/read-request';
import { closed, num, optional, optionalBody } from '#http/schema';

/** The optional body of a rotation. */
export const ROTATION_BODY = optionalBody(
  closed({
    overlap_hours: optional(
      num('How long the replaced token keeps signing webhooks too; 0 ends it at once.', 0, {
        maximum: MAX_OVERLAP_HOURS,
        default: DEFAULT_OVERLAP_HOURS,
      }),
    ),
  }),
);

/**
 * How long the replaced token (or key) keeps signing: 0 to {@link MAX_OVERLAP_HOURS} hours,
 * {@link DEFAULT_OVERLAP_HOURS} when absent.
 *
 * @throws ValidationError naming the field
 */
export function parseTokenRotation(event: APIGatewayProxyEvent): { overlapHours: number } {
  return { overlapHours: readBody(event, ROTATION_BODY).overlap_hours ?? DEFAULT_OVERLAP_HOURS };
}
