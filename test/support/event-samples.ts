/**
 * Sample events as the views render them, for the OpenAPI document's tests: a delivered event with an
 * attempt recorded before URLs and keys were kept and one after, and the same event while it waits.
 */
import type { EventRecord } from '#domain/model';
import { signAttempt } from '#domain/signing/signatures';
import { generateWebhookToken } from '#domain/signing/webhook-token';
import { webhookBody } from '#domain/webhook-body';
import { TRANSFER, transferPayload } from './payloads';

/** The API's base URL the samples link to. */
export const base = 'https://abc123.execute-api.eu-central-1.amazonaws.com/prod';
/** A delivered event's id, and its account. */
export const id = '0190f4e8-3c1a-7b2e-9f00-123456789abc';
export const iban = 'DE89370400440532013000';
export const body = webhookBody({
  id,
  type: TRANSFER,
  typeVersion: 1,
  account: iban,
  sequence: 7,
  triggeredAt: '2026-11-21T12:34:56.789Z',
  payloadJson: JSON.stringify(transferPayload()),
  baseUrl: base,
});
export const record: EventRecord = {
  id,
  orgId: 'org-1',
  account: iban,
  sequence: 7,
  type: TRANSFER,
  typeVersion: 1,
  triggeredAt: '2026-11-21T12:34:56.789Z',
  body,
  signature: signAttempt({ webhookToken: generateWebhookToken() }, id, 1_763_728_507, body, 0).xSignature,
  webhookStatus: 'success',
  webhookRetries: 2,
  cycleBase: 0,
  cycles: 1,
  deliveries: [
    {
      deliveredAt: '2026-11-21T12:34:57.100Z',
      responseStatus: 0,
      responseBody: 'timed out after 10000 ms',
      responseTimeMs: 10_000,
    },
    {
      deliveredAt: '2026-11-21T12:35:07.900Z',
      responseStatus: 204,
      responseBody: '',
      responseTimeMs: 35,
      url: 'https://hooks.example.com/herald',
      signingKeys: ['whk_0123456789abcdef', 'whk_fedcba9876543210'],
    },
  ],
};
/** The same event while its second attempt waits: no signature shown yet, a next attempt time. */
export const pendingRecord: EventRecord = {
  ...record,
  signature: undefined,
  webhookStatus: 'pending',
  webhookRetries: 1,
  deliveries: record.deliveries.slice(0, 1),
  nextAttemptAt: Date.parse('2026-11-21T12:35:07.000Z'),
};
