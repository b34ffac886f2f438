/**
 * The body of the operator's `POST /admin/organizations`: `{"name"}`.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#domain/errors';
import { jsonBody } from '#http/request';

/** Longest organization name. */
export const MAX_ORGANIZATION_NAME_LENGTH = 200;

/**
 * The new organization's name, trimmed: 1 to {@link MAX_ORGANIZATION_NAME_LENGTH} characters.
 *
 * @throws ValidationError naming the field
 */
export function parseNewOrganization(event: APIGatewayProxyEvent): { name: string } {
  const { name } = jsonBody(event, ['name']);
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length === 0 || trimmed.length > MAX_ORGANIZATION_NAME_LENGTH) {
    throw new ValidationError('name', `must be a string of 1 to ${MAX_ORGANIZATION_NAME_LENGTH} characters`);
  }
  return { name: trimmed };
}
