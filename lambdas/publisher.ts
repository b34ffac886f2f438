import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import type { PublishInput } from '#domain/event-input';
import type { WebhookStatus } from '#domain/model';
import { recordEvent, settingsRetention } from '#use-cases/events/record-event';

/** Where and how events are published. */
export interface PublisherOptions {
  /** The stack's `TableName` output. */
  readonly tableName: string;
  /** The stack's `ApiUrl` output (or custom domain): `_links` in webhook bodies point there. */
  readonly baseUrl: string;
  /** Largest accepted serialized payload; 64 KiB by default, at most 1 MiB (`MAX_PAYLOAD_BYTES_CEILING`). */
  readonly maxPayloadBytes?: number;
  /** A document client of your own (region, credentials); one from the default chain otherwise. */
  readonly client?: DynamoDBDocumentClient;
}

/** What publishing returns. */
export interface PublishedEvent {
  readonly id: string;
  /**
   * The event's place in its account's log (1, 2, 3, … per account); null only for an event stored
   * before sequences (a re-publish of an old event's id).
   */
  readonly sequence: number | null;
  /** False when the id existed with the same content (an idempotent re-publish). */
  readonly created: boolean;
  readonly webhookStatus: WebhookStatus;
  /** ISO 8601 UTC. */
  readonly triggeredAt: string;
  /**
   * The `X-Signature` of the event's most recent delivery attempt, `t=<timestamp>,sha256=<hex>…`; null
   * before the first, so always null for a newly created event. Its meaning changed when attempts
   * began to sign themselves: it used to be a signature fixed at publish and sent with every attempt
   * (`docs/webhooks.md` has the migration).
   */
  readonly signature: string | null;
}

/** A publish function bound to one table; build it once and reuse it. */
export type Publisher = (input: PublishInput) => Promise<PublishedEvent>;

/**
 * Builds a publisher for the gateway's own code: `const publish = createPublisher({...})`, then
 * `await publish({ account, type, payload })`.
 */
export function createPublisher(options: PublisherOptions): Publisher {
  const client = options.client ?? createDocumentClient();
  const directory = new DynamoDirectoryStore(client, options.tableName);
  const deps = {
    events: new DynamoEventStore(client, options.tableName),
    directory,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    maxPayloadBytes: options.maxPayloadBytes,
    // The stack's `eventRetentionDays`, from the table's settings item.
    retentionDays: settingsRetention(directory),
  };
  return async (input) => {
    const { created, event } = await recordEvent(deps, input);
    return {
      id: event.id,
      sequence: event.sequence ?? null,
      created,
      webhookStatus: event.webhookStatus,
      triggeredAt: event.triggeredAt,
      signature: event.signature ?? null,
    };
  };
}

/**
 * Records an event and queues its webhook (through the table stream). Same id and content again →
 * the stored event; same id, other content → ConflictError; unknown account → NotFoundError; bad input
 * → ValidationError. Nothing is stored when it throws.
 */
export function publishEvent(input: PublishInput, options: PublisherOptions): Promise<PublishedEvent> {
  return createPublisher(options)(input);
}
