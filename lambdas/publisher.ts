import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createPublishDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { PUBLISH_BATCH_LIMIT } from '#config/limits';
import type { PublishInput } from '#domain/event-input';
import type { WebhookStatus } from '#domain/model';
import { CATALOG_HEAD_TTL_MS, createEventTypeCatalog } from '#use-cases/event-types/catalog';
import {
  type RecordEventDeps,
  type RecordedEvent,
  recordEvent,
  settingsRetention,
} from '#use-cases/events/record-event';
import { recordEvents } from '#use-cases/events/record-events';

/** Where and how events are published. */
export interface PublisherOptions {
  /** The stack's `TableName` output. */
  readonly tableName: string;
  /** The stack's `ApiUrl` output (or custom domain): `_links` in webhook bodies point there. */
  readonly baseUrl: string;
  /** Largest accepted serialized payload; 64 KiB by default, at most 128 KiB (`MAX_PAYLOAD_BYTES_CEILING`: what an event's item holds beside all its attempts). */
  readonly maxPayloadBytes?: number;
  /** A document client of your own (region, credentials); one from the default chain otherwise. */
  readonly client?: DynamoDBDocumentClient;
  /**
   * Accept event types outside the catalog, their payloads only checked to be JSON objects and their events
   * recorded without a `type_version`: for a transition while the gateway moves to the catalog's types (as
   * the stack's `herald:acceptUnknownEventTypes` does for `POST /events`). Off by default: a type outside
   * the catalog throws `UnprocessableError`.
   */
  readonly acceptUnknownEventTypes?: boolean;
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
   * The version of its type the payload passed; null for a type outside the catalog accepted with
   * `acceptUnknownEventTypes` (or an event stored before the catalog, re-published by its id).
   */
  readonly typeVersion: number | null;
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

/** What a batch publish answers for one input: the event, or the error that refused only this input. */
export type BatchPublishResult = PublishedEvent | { readonly error: Error };

/**
 * A batch publish function bound to one table: any number of inputs, stored {@link PUBLISH_BATCH_LIMIT}
 * at a time, one result per input in order.
 */
export type BatchPublisher = (inputs: readonly PublishInput[]) => Promise<BatchPublishResult[]>;

/**
 * Builds a publisher for the gateway's own code: `const publish = createPublisher({...})`, then
 * `await publish({ account, type, payload })`.
 */
export function createPublisher(options: PublisherOptions): Publisher {
  const deps = publisherDeps(options);
  return async (input) => published(await recordEvent(deps, input));
}

/**
 * Builds a batch publisher: `const publishMany = createBatchPublisher({...})`, then
 * `await publishMany(inputs)`. Each input is checked and answered as {@link createPublisher}'s publish
 * would, one refused input refusing only itself; the inputs of one account take consecutive sequences in
 * their order (a file's lines, say), numbered through one ticket of the account's log per
 * {@link PUBLISH_BATCH_LIMIT} inputs instead of one race per event. Give every input an `id` to resend
 * a batch (or the part of it that failed) without storing anything twice.
 */
export function createBatchPublisher(options: PublisherOptions): BatchPublisher {
  const deps = publisherDeps(options);
  return async (inputs) => {
    const results: BatchPublishResult[] = [];
    for (let start = 0; start < inputs.length; start += PUBLISH_BATCH_LIMIT) {
      const chunk = await recordEvents(deps, inputs.slice(start, start + PUBLISH_BATCH_LIMIT));
      for (const result of chunk) {
        results.push('error' in result ? { error: asError(result.error) } : published(result));
      }
    }
    return results;
  };
}

function publisherDeps(options: PublisherOptions): RecordEventDeps {
  const client = options.client ?? createPublishDocumentClient();
  const directory = new DynamoDirectoryStore(client, options.tableName);
  return {
    events: new DynamoEventStore(client, options.tableName),
    directory,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    maxPayloadBytes: options.maxPayloadBytes,
    // The stack's `eventRetentionDays`, from the table's settings item.
    retentionDays: settingsRetention(directory),
    // The built-in types (compiled once per process) and the operators' types of this table, kept as
    // the publish function keeps them.
    catalog: createEventTypeCatalog({
      store: new DynamoEventTypeStore(client, options.tableName),
      now: Date.now,
      headTtlMs: CATALOG_HEAD_TTL_MS,
    }),
    acceptUnknownTypes: options.acceptUnknownEventTypes === true,
  };
}

function published({ created, event }: RecordedEvent): PublishedEvent {
  return {
    id: event.id,
    sequence: event.sequence ?? null,
    created,
    webhookStatus: event.webhookStatus,
    triggeredAt: event.triggeredAt,
    typeVersion: event.typeVersion ?? null,
    signature: event.signature ?? null,
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Records an event and queues its webhook (through the table stream). Same id and content again →
 * the stored event; same id, other content → ConflictError; unknown account → NotFoundError; a type
 * outside the catalog → UnprocessableError naming the known ones; bad input, or a payload its type's
 * schema refuses → ValidationError (`params`: one per violation, `payload/<JSON pointer>`). Nothing is
 * stored when it throws.
 */
export function publishEvent(input: PublishInput, options: PublisherOptions): Promise<PublishedEvent> {
  return createPublisher(options)(input);
}

/**
 * Records events and queues their webhooks, {@link PUBLISH_BATCH_LIMIT} at a time: one result per input,
 * in order, each the event or the error that refused it (as {@link publishEvent} would have thrown it).
 */
export function publishEvents(
  inputs: readonly PublishInput[],
  options: PublisherOptions,
): Promise<BatchPublishResult[]> {
  return createBatchPublisher(options)(inputs);
}
