import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ValidationError } from '#domain/errors';
import { TIMESTAMP_PARAM_REASON } from '#domain/time';
import type { EnableResult } from '#use-cases/enable-endpoint';
import { jsonBody } from './request';

/**
 * The body of `POST /accounts/{iban}/enable` and its operator twin: empty, or
 * `{"recover_since": "YYYY-MM-DD HH:MM:SS"}`.
 *
 * @throws ValidationError naming the field for anything else
 */
export function parseEnableRequest(event: APIGatewayProxyEvent): { recoverSince?: string } {
  if (event.body === null || event.body.trim() === '') return {};
  const { recover_since } = jsonBody(event, ['recover_since']);
  if (recover_since === undefined) return {};
  if (typeof recover_since !== 'string') {
    throw new ValidationError('recover_since', TIMESTAMP_PARAM_REASON);
  }
  return { recoverSince: recover_since };
}

/** The answer of an enable (the `EndpointEnabled` schema). */
export interface EndpointEnabledView {
  readonly iban: string;
  readonly webhook_health: 'healthy';
  readonly queued: readonly string[];
}

/** Renders what enabling did. */
export function toEndpointEnabledView(result: EnableResult): EndpointEnabledView {
  return { iban: result.iban, webhook_health: 'healthy', queued: result.queued };
}
