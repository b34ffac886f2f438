/**
 * End-to-end delivery tests: a local runtime with the real handlers on the shared emulators, plus
 * helpers to seed organizations and accounts, publish events, read them back through the API and
 * inspect the queues. What needs no running harness (retry schedules, test IBANs, raw queue and stream
 * access) is in `delivery-queue-helpers.ts`.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, expect } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { keys } from '#adapters/dynamodb/items';
import { BusyError } from '#domain/errors';
import type { EventRef, WebhookStatus } from '#domain/model';
import type { EventView } from '#http/events/event-view';
import { type SeededTenant, TenantSeeder } from '#local/tenant-seed';
import { createPublisher, type Publisher } from '../../lambdas/publisher';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../scripts/local/emulators';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import {
  forwardInsertAgain,
  queueIsEmpty,
  sendIdMessage,
  sendIdMessages,
  testIban,
} from './delivery-queue-helpers';
import { TRANSFER, transferPayload } from './payloads';
import { type Receiver, type ReplyScript, startReceiver } from './receiver';
import { testEndpoints, uniquePrefix } from './resources';
import { useFixture } from './use-fixture';
import { waitFor } from './wait';

/** An API answer. */
export interface ApiAnswer<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/** Options of {@link startDeliveryHarness}. */
export interface HarnessOptions {
  readonly label: string;
  /** `RETRY_SCHEDULE` of the functions. */
  readonly retrySchedule: string;
  /** Extra function environment (e.g. `DELIVERY_TIMEOUT_MS`). */
  readonly env?: Readonly<Record<string, string>>;
  readonly consumerConcurrency?: number;
  /** How long the gateway keeps an authorizer decision; 60 s (as in AWS) when absent. */
  readonly authorizerCacheTtlSeconds?: number;
  /**
   * The transition to the event type catalog, on for `POST /events` (`ACCEPT_UNKNOWN_EVENT_TYPES`) and for
   * `publish`: only for a test whose point needs a payload no catalog type takes (the largest one).
   */
  readonly acceptUnknownEventTypes?: boolean;
}

/** A running runtime and what the tests need around it. */
export interface DeliveryHarness {
  readonly runtime: LocalRuntime;
  readonly documents: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  readonly directory: DynamoDirectoryStore;
  readonly events: DynamoEventStore;
  readonly publish: Publisher;
  /** Errors the runtime's event-source emulations reported. */
  readonly errors: { source: string; error: unknown }[];
  createTenant(name?: string): Promise<SeededTenant>;
  /** A new account of the tenant (a fresh valid IBAN), with or without a webhook URL. */
  createAccount(tenant: SeededTenant, webhookUrl?: string): Promise<string>;
  /** Sets or removes (undefined) the webhook URL of an account. */
  setWebhookUrl(tenant: SeededTenant, iban: string, webhookUrl: string | undefined): Promise<void>;
  /** A call of the API with the tenant's key. */
  api<T = unknown>(tenant: SeededTenant, method: 'GET' | 'POST', path: string): Promise<ApiAnswer<T>>;
  /** `GET /events/{id}` with the tenant's key; fails the test unless it answers 200. */
  getEvent(tenant: SeededTenant, id: string): Promise<EventView>;
  /** Polls `GET /events/{id}` until the event has the status (and, if given, that many attempts). */
  waitForEvent(
    tenant: SeededTenant,
    id: string,
    status: WebhookStatus,
    options?: { attempts?: number; timeoutMs?: number },
  ): Promise<EventView>;
  /**
   * A `pending` event that no queue message carries: published while its new account had no webhook URL
   * (so `skipped`, which the stream filter drops), then given `webhookUrl` and set `pending` by a direct
   * update. Tests then put `{"id"}` messages where they want them.
   */
  quietPendingEvent(
    tenant: SeededTenant,
    webhookUrl: string,
    event?: { type: string; payload: Record<string, unknown> },
  ): Promise<EventRef & { iban: string }>;
  /** Sends a `{"id"}` message straight to a queue (the delivery queue unless told otherwise). */
  sendMessage(id: string, queueUrl?: string): Promise<void>;
  /** Sends several `{"id"}` messages in one SendMessageBatch, so they arrive together. */
  sendMessages(ids: readonly string[], queueUrl?: string): Promise<void>;
  /** Invokes the real forwarder with an INSERT stream record of the event, as a duplicated record would. */
  forwardAgain(id: string): Promise<void>;
  /** Whether a queue holds no message at all (visible, in flight or delayed). */
  queueIsEmpty(queueUrl?: string): Promise<boolean>;
  stop(): Promise<void>;
}

/** Starts a local runtime with the real handlers on the test run's emulators. */
export async function startDeliveryHarness(options: HarnessOptions): Promise<DeliveryHarness> {
  const endpoints = testEndpoints();
  const errors: { source: string; error: unknown }[] = [];
  const runtime = await startLocalRuntime({
    endpoints,
    prefix: uniquePrefix(options.label),
    retrySchedule: options.retrySchedule,
    env: {
      ...options.env,
      ...(options.acceptUnknownEventTypes ? { ACCEPT_UNKNOWN_EVENT_TYPES: 'true' } : {}),
    },
    ...(options.consumerConcurrency ? { consumerConcurrency: options.consumerConcurrency } : {}),
    authorizerCacheTtlSeconds: options.authorizerCacheTtlSeconds,
    onError: (source, error) => {
      errors.push({ source, error });
      console.error(`[${source}] ${new Date().toISOString()}`, error);
    },
  });
  const config = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  const raw = new DynamoDBClient({ ...config, endpoint: endpoints.dynamodb });
  const documents = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  const sqs = new SQSClient({ ...config, endpoint: endpoints.sqs });
  const directory = new DynamoDirectoryStore(documents, runtime.tableName);
  const seeder = new TenantSeeder(documents, runtime.tableName);
  const events = new DynamoEventStore(documents, runtime.tableName);
  const publishOnce = createPublisher({
    tableName: runtime.tableName,
    baseUrl: runtime.baseUrl,
    client: documents,
    acceptUnknownEventTypes: options.acceptUnknownEventTypes === true,
  });
  // As the docs tell a client: a busy answer (the publish's budget ran out, as it may on a loaded test
  // machine) is sent again with the same id, which stores the event once.
  const publish: Publisher = async (input) => {
    const sent = { ...input, id: input.id ?? randomUUID() };
    for (let send = 1; ; send++) {
      try {
        return await publishOnce(sent);
      } catch (error) {
        if (!(error instanceof BusyError) || send === 5) throw error;
      }
    }
  };

  const api = async <T>(
    tenant: SeededTenant,
    method: 'GET' | 'POST',
    path: string,
  ): Promise<ApiAnswer<T>> => {
    const response = await fetch(`${runtime.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${tenant.apiKey}` },
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : null) as T,
    };
  };

  const getEvent = async (tenant: SeededTenant, id: string): Promise<EventView> => {
    const answer = await api<EventView>(tenant, 'GET', `/events/${id}`);
    expect(answer.status, `GET /events/${id}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  };

  return {
    runtime,
    documents,
    sqs,
    directory,
    events,
    publish,
    errors,
    createTenant: (name = 'Test organization') => seeder.tenant(name),
    createAccount: async (tenant, webhookUrl) => {
      const iban = testIban();
      await seeder.account(tenant.orgId, { iban, webhookUrl });
      return iban;
    },
    setWebhookUrl: (tenant, iban, webhookUrl) => seeder.account(tenant.orgId, { iban, webhookUrl }),
    api,
    getEvent,
    waitForEvent: (tenant, id, status, { attempts, timeoutMs = 30_000 } = {}) => {
      let last: EventView | undefined;
      return waitFor(
        async () => {
          last = await getEvent(tenant, id);
          const done =
            last.webhook_status === status &&
            (attempts === undefined || last.webhook_deliveries.length >= attempts);
          return done && last;
        },
        {
          timeoutMs,
          intervalMs: 200,
          what: `event ${id} to be ${status}${attempts === undefined ? '' : ` with ${attempts} attempts`}`,
        },
      ).catch((error: unknown) => {
        const seen = last
          ? `${last.webhook_status} after ${last.webhook_retries} attempt(s)`
          : 'no answer yet';
        throw new Error(`${(error as Error).message}; last seen: ${seen}`);
      });
    },
    quietPendingEvent: async (
      tenant,
      webhookUrl,
      event = { type: TRANSFER, payload: transferPayload({ transfer_id: 'tr_quiet' }) },
    ) => {
      const iban = testIban();
      await seeder.account(tenant.orgId, { iban });
      const published = await publish({ account: iban, ...event });
      expect(published.webhookStatus).toBe('skipped');
      const ref = { id: published.id, orgId: tenant.orgId, account: iban, sequence: published.sequence ?? 0 };
      await seeder.account(tenant.orgId, { iban, webhookUrl });
      // A raw update rather than `startCycle`, so the arrangement does not depend on the code under test.
      // A MODIFY never passes the stream filter, so no message is sent.
      await documents.send(
        new UpdateCommand({
          TableName: runtime.tableName,
          Key: keys.eventAt(ref),
          UpdateExpression: 'SET webhook_status = :pending, cycle_base = webhook_retries',
          ConditionExpression: 'webhook_status = :skipped',
          ExpressionAttributeValues: { ':pending': 'pending', ':skipped': 'skipped' },
        }),
      );
      return { ...ref, iban };
    },
    sendMessage: (id, queueUrl = runtime.queueUrl) => sendIdMessage(sqs, queueUrl, id),
    sendMessages: (ids, queueUrl = runtime.queueUrl) => sendIdMessages(sqs, queueUrl, ids),
    forwardAgain: (id) => forwardInsertAgain(raw, runtime.tableName, id),
    queueIsEmpty: (queueUrl = runtime.queueUrl) => queueIsEmpty(sqs, queueUrl),
    stop: async () => {
      await runtime.stop();
      documents.destroy();
      raw.destroy();
      sqs.destroy();
    },
  };
}

/**
 * The invariant every recorded event must keep: one attempt recorded per counted retry.
 */
export function expectCountsConsistent(view: EventView): void {
  expect(view.webhook_retries, `event ${view.id}: webhook_retries vs webhook_deliveries`).toBe(
    view.webhook_deliveries.length,
  );
}

/**
 * Registers this test file's harness: started before its tests, stopped after them together with every
 * receiver the file started through the returned function.
 *
 * @param ready - receives the started harness (assign it to the file's `harness` variable)
 */
export function setupDeliveryFile(
  options: HarnessOptions,
  ready: (harness: DeliveryHarness) => void,
): (script?: ReplyScript) => Promise<Receiver> {
  const receivers: Receiver[] = [];
  useFixture(() => startDeliveryHarness(options), ready);
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });
  return async (script) => {
    const started = await startReceiver(script);
    receivers.push(started);
    return started;
  };
}
