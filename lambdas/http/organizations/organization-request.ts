/**
 * The body of the operator's `POST /admin/organizations`: `{"name"}`.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#domain/errors';
import { readBody, refusal } from '#http/read-request';
import { body, closed, text } from '#http/schema';

/** Longest organization name. */
export const MAX_ORGANIZATION_NAME_LENGTH = 200;

const NAME = text(`1 to ${MAX_ORGANIZATION_NAME_LENGTH} characters.`, {
  minLength: 1,
  maxLength: MAX_ORGANIZATION_NAME_LENGTH,
});

/** The body of a new organization. */
export const ORGANIZATION_BODY = body(closed({ name: NAME }));

/**
 * The new organization's name, trimmed: 1 to {@link MAX_ORGANIZATION_NAME_LENGTH} characters.
 *
 * @throws ValidationError naming the field
 */
export function parseNewOrganization(event: APIGatewayProxyEvent): { name: string } {
  const name = readBody(event, ORGANIZATION_BODY).name.trim();
  if (name.length === 0) throw new ValidationError('name', refusal(NAME));
  return { name };
}
