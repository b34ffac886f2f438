/**
 * The optional body of a webhook token rotation (an organization key's `POST /webhook-token/rotate`, the
 * operator's twin): `{"overlap_hours"?}`.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#domain/errors';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS } from '#domain/signing/webhook-token';
import { optionalJsonBody } from '#http/request';

/**
 * How long the replaced token keeps signing: 0 to {@link MAX_OVERLAP_HOURS} hours,
 * {@link DEFAULT_OVERLAP_HOURS} when absent.
 *
 * @throws ValidationError naming the field
 */
export function parseTokenRotation(event: APIGatewayProxyEvent): { overlapHours: number } {
  const hours = optionalJsonBody(event, ['overlap_hours']).overlap_hours ?? DEFAULT_OVERLAP_HOURS;
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0 || hours > MAX_OVERLAP_HOURS) {
    throw new ValidationError('overlap_hours', `must be a number from 0 to ${MAX_OVERLAP_HOURS}`);
  }
  return { overlapHours: hours };
}
