/**
 * Concurrent publishes to ONE account (a payroll or clearing file for one IBAN) against DynamoDB Local,
 * through the real `recordEvent` and `recordEvents`: single publishers on a quiet log (the first round
 * races, by design: the quiet path is optimistic), on a hot one (tickets), and batch publishers. Counts
 * the table requests and capacity units per stored event, the busy answers, and the publishes per
 * second, for each case. A busy publish is sent again with the same id after
 * a back-off (200 ms, doubled, at most 5 sends), as Herald's client library advises; the sends are part
 * of the cost. DynamoDB Local answers in about a millisecond and has no partition limit, so the requests
 * and units are what to compare; the rates are this machine's.
 */

import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventTypeStore } from '#adapters/dynamodb/event-type-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { BusyError } from '#domain/errors';
import type { PublishInput } from '#domain/event-input';
import { ibanWithCheckDigits } from '#domain/iban';
import { uuidv7 } from '#domain/ids';
import { TenantSeeder } from '#local/tenant-seed';
import { CATALOG_HEAD_TTL_MS, createEventTypeCatalog } from '#use-cases/event-types/catalog';
import { recordEvent } from '#use-cases/events/record-event';
import { recordEvents } from '#use-cases/events/record-events';
import { SAMPLE_PAYLOAD } from './capacity';

/** How the publishers of one row publish. */
export interface ContentionCase {
  /** Concurrent publishers of one account. */
  readonly publishers: number;
  /**
   * `single`: one event each, the account quiet before (a burst's first round is optimistic by design);
   * `warm`: the same on an account whose log is hot (a burst under way); `batch`: a batch each.
   */
  readonly mode: 'single' | 'warm' | 'batch';
  /** Events per batch (`batch` only). */
  readonly batchSize?: number;
  /**
   * Single events each publisher sends one after the other (`single` only, 1 by default): a burst longer
   * than its first round, which shows what the optimistic first round costs spread over a burst.
   */
  readonly eventsEach?: number;
}

/** One row: a case and what it cost. */
export interface ContentionRow extends ContentionCase {
  /** Events stored. */
  readonly stored: number;
  /** Table requests per stored event, all sends counted, by operation (`PutItem` includes refused puts). */
  readonly requestsPerEvent: Record<string, number>;
  readonly totalRequestsPerEvent: number;
  /** Read and write units per stored event; a refused conditional write is charged as 1 WCU. */
  readonly readUnitsPerEvent: number;
  readonly writeUnitsPerEvent: number;
  /** The write units per stored event by what was written ({@link writeKind}), refused writes apart. */
  readonly writeUnitsByKind: Record<string, number>;
  /** 503 `busy` answers (each followed by a client resend). */
  readonly busy: number;
  /** Publishes the client gave up after five sends. */
  readonly abandoned: number;
  readonly wallMs: number;
  readonly publishesPerSecond: number;
}

/** Sends of one publish before the client gives up, and its first back-off (ms), doubled per send. */
const SENDS = 5;
const CLIENT_BACKOFF_MS = 200;

const WRITES = new Set([
  'PutItem',
  'MoveClaim',
  'UpdateItem',
  'DeleteItem',
  'TakeTicket',
  'LiftHead',
  'LeaveHot',
  'VoidSequence',
]);

/** A request's parameters as the document client's middleware sees them (native or marshalled values). */
interface WriteInput {
  readonly Item?: { readonly sk?: unknown };
  readonly Key?: { readonly sk?: unknown };
  readonly ConditionExpression?: string;
}

/**
 * What a write request wrote, by the item's sort key: an id's claim (`EVENT`) or its move (conditioned on
 * its `owner`), an event at its sequence, the log's head (`HEAD`: tickets, lifts, leaving), a void; any
 * other write by its command. Undefined for a read.
 */
function writeKind(command: string, input: WriteInput): string | undefined {
  const sk = (value: unknown) =>
    typeof value === 'object' && value !== null && 'S' in value ? String(value.S) : String(value);
  if (command === 'PutItemCommand') {
    if (sk(input.Item?.sk) !== 'EVENT') return 'event put';
    return input.ConditionExpression?.includes('#owner') ? 'claim move' : 'claim put';
  }
  if (command === 'UpdateItemCommand' || command === 'DeleteItemCommand') {
    const key = sk(input.Key?.sk);
    if (key === 'HEAD') return command === 'UpdateItemCommand' ? 'head update' : 'head delete';
    return /^\d+$/.test(key) ? 'void' : command;
  }
  return command === 'TransactWriteItemsCommand' || command === 'BatchWriteItemCommand' ? command : undefined;
}

/** Runs each case against one fresh account, in order. */
export async function measurePublishContention(
  tableName: string,
  cases: readonly ContentionCase[],
  onRow: (row: ContentionRow) => void,
): Promise<void> {
  for (const [index, one] of cases.entries()) onRow(await measureOne(tableName, one, index));
}

async function measureOne(tableName: string, one: ContentionCase, index: number): Promise<ContentionRow> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const iban = ibanWithCheckDigits('DE', `37040044${String(532014000 + index).padStart(10, '0')}`);
  await new TenantSeeder(client, tableName).tenant(`contention ${index}`, [{ iban }]);
  const counted = {
    requests: {} as Record<string, number>,
    refusedWrites: 0,
    read: 0,
    write: 0,
    byKind: {} as Record<string, number>,
  };
  const addKind = (kind: string | undefined, units: number) => {
    if (counting && kind !== undefined) counted.byKind[kind] = (counted.byKind[kind] ?? 0) + units;
  };
  let counting = false;
  // Every request the publishes send, refused ones included (the capacity listener sees only successes).
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const kind = writeKind(context.commandName ?? '', args.input as WriteInput);
      try {
        const out = await next(args);
        const consumed = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity;
        addKind(kind, consumed?.CapacityUnits ?? 0);
        return out;
      } catch (error) {
        if (counting && error instanceof ConditionalCheckFailedException) {
          counted.refusedWrites++;
          addKind(kind === undefined ? undefined : `${kind}, refused`, 1);
        }
        throw error;
      } finally {
        const name = context.commandName ?? 'unknown';
        if (counting) counted.requests[name] = (counted.requests[name] ?? 0) + 1;
      }
    },
    { step: 'initialize', name: 'countRequests' },
  );
  const listener = (operation: string, consumed: number) => {
    if (!counting) return;
    if (WRITES.has(operation)) counted.write += consumed;
    else counted.read += consumed;
  };
  const deps = {
    events: new DynamoEventStore(client, tableName, listener),
    directory: new DynamoDirectoryStore(client, tableName, listener),
    baseUrl: 'https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/prod',
    retentionDays: async () => undefined,
    // As the publish function builds it: a built-in type's publish reads nothing of the catalog.
    catalog: createEventTypeCatalog({
      store: new DynamoEventTypeStore(client, tableName),
      now: Date.now,
      headTtlMs: CATALOG_HEAD_TTL_MS,
    }),
  };
  const input = () => ({
    id: uuidv7(Date.now()),
    account: iban,
    type: 'credit_transfer_status_change',
    payload: SAMPLE_PAYLOAD,
  });
  let busy = 0;
  let abandoned = 0;
  /** One client: sends its events, resending the busy ones (same ids) after a back-off. */
  const client1 = async (inputs: PublishInput[]): Promise<number[]> => {
    const sequences: number[] = [];
    let pending = inputs;
    for (let send = 0; send < SENDS && pending.length > 0; send++) {
      if (send > 0) await new Promise((resolve) => setTimeout(resolve, CLIENT_BACKOFF_MS * 2 ** (send - 1)));
      const results =
        one.mode === 'batch'
          ? await recordEvents(deps, pending)
          : [await recordEvent(deps, pending[0] as PublishInput).catch((error: unknown) => ({ error }))];
      const again: PublishInput[] = [];
      for (const [k, result] of results.entries()) {
        if (!('error' in result)) sequences.push(result.event.sequence ?? 0);
        else if (result.error instanceof BusyError) {
          busy++;
          again.push(pending[k] as PublishInput);
        } else throw result.error;
      }
      pending = again;
    }
    abandoned += pending.length;
    return sequences;
  };
  // Warm: a batch makes the log hot (its head hands out tickets) before the measured publishes.
  if (one.mode === 'warm') await recordEvents(deps, [input(), input()]);
  const before = one.mode === 'warm' ? 2 : 0;
  const perClient = one.mode === 'batch' ? (one.batchSize ?? 10) : 1;
  const inputs = Array.from({ length: one.publishers }, () => Array.from({ length: perClient }, input));
  /** One publisher: its sends, one after the other (`eventsEach` single events, or one batch). */
  const publisher = async (first: PublishInput[]): Promise<number[]> => {
    const sequences = await client1(first);
    for (let k = 1; k < (one.mode === 'batch' ? 1 : (one.eventsEach ?? 1)); k++) {
      sequences.push(...(await client1([input()])));
    }
    return sequences;
  };
  counting = true;
  const start = performance.now();
  const sequences = (await Promise.all(inputs.map(publisher))).flat();
  const wallMs = performance.now() - start;
  counting = false;

  // The guarantee the speed must not cost: the stored events hold exactly the sequences after the ones
  // stored before, each once.
  const stored = sequences.sort((a, b) => a - b);
  if (stored.some((sequence, i) => sequence !== before + i + 1)) {
    throw new Error(
      `contention bench: sequences not ${before + 1}..${before + stored.length}: ${stored.join(',')}`,
    );
  }
  const per = (n: number) => Number((n / Math.max(1, stored.length)).toFixed(2));
  const total = Object.values(counted.requests).reduce((sum, n) => sum + n, 0);
  return {
    ...one,
    stored: stored.length,
    requestsPerEvent: Object.fromEntries(Object.entries(counted.requests).map(([op, n]) => [op, per(n)])),
    totalRequestsPerEvent: per(total),
    readUnitsPerEvent: per(counted.read),
    writeUnitsPerEvent: per(counted.write + counted.refusedWrites),
    writeUnitsByKind: Object.fromEntries(
      Object.entries(counted.byKind)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([kind, units]) => [kind, per(units)]),
    ),
    busy,
    abandoned,
    wallMs: Math.round(wallMs),
    publishesPerSecond: Math.round((stored.length * 1000) / wallMs),
  };
}
