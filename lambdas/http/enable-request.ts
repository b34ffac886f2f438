import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#domain/errors';

/**
 * The body of `POST /accounts/{iban}/enable`: empty, or `{"recover_since": "YYYY-MM-DD HH:MM:SS"}`.
 *
 * @throws ValidationError naming the field for anything else
 */
export function parseEnableRequest(event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded'>): {
  recoverSince?: string;
} {
  const raw =
    event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (raw === null || raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ValidationError(
      'body',
      'must be a JSON object such as {"recover_since": "2026-11-20 00:00:00"}',
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ValidationError('body', 'must be a JSON object');
  }
  const { recover_since, ...rest } = parsed as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw new ValidationError(unknown, 'is not a field; allowed: recover_since');
  if (recover_since === undefined) return {};
  if (typeof recover_since !== 'string') {
    throw new ValidationError('recover_since', 'expected "YYYY-MM-DD HH:MM:SS" (UTC)');
  }
  return { recoverSince: recover_since };
}
