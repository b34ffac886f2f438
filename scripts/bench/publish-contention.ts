/**
 * Concurrent publishes to ONE account (a payroll or clearing file for one IBAN) against DynamoDB Local,
 * through the real `recordEvent`: every publisher races for the next sequence of the same log. Counts
 * the table requests and capacity units per stored event, the busy answers, and the publishes per
 * second, for each number of concurrent publishers. A busy publish is sent again with the same id after
 * a back-off (200 ms, doubled, at most 5 sends), as Herald's client library advises; the sends are part
 * of the cost. DynamoDB Local answers in about a millisecond and has no partition limit, so the requests
 * and units are what to compare; the rates are this machine's.
 */
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';
import { BusyError } from '#domain/errors';
import { ibanWithCheckDigits } from '#domain/iban';
import { uuidv7 } from '#domain/ids';
import { TenantSeeder } from '#local/tenant-seed';
import { recordEvent } from '#use-cases/events/record-event';
import { SAMPLE_PAYLOAD } from './capacity';

/** One number of concurrent publishers to one account. */
export interface ContentionRow {
  readonly publishers: number;
  /** Table requests per stored event, all sends counted, by operation (`PutItem` includes refused puts). */
  readonly requestsPerEvent: Record<string, number>;
  readonly totalRequestsPerEvent: number;
  /** Read and write units per stored event; a refused conditional put is charged as its item (1 WCU). */
  readonly readUnitsPerEvent: number;
  readonly writeUnitsPerEvent: number;
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

const WRITES = new Set(['PutItem', 'MoveClaim', 'UpdateItem', 'DeleteItem']);

/** Runs `publishers` concurrent publishes to one fresh account per entry, in order. */
export async function measurePublishContention(
  tableName: string,
  counts: readonly number[],
  onRow: (row: ContentionRow) => void,
): Promise<void> {
  for (const [index, publishers] of counts.entries()) {
    onRow(await measureOne(tableName, publishers, index));
  }
}

async function measureOne(tableName: string, publishers: number, index: number): Promise<ContentionRow> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const iban = ibanWithCheckDigits('DE', `37040044${String(532014000 + index).padStart(10, '0')}`);
  await new TenantSeeder(client, tableName).tenant(`contention ${publishers}`, [{ iban }]);

  // Every request the publishes send, refused ones included (the capacity listener sees only successes).
  const requests: Record<string, number> = {};
  let refusedWrites = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) refusedWrites++;
        throw error;
      } finally {
        const name = context.commandName ?? 'unknown';
        requests[name] = (requests[name] ?? 0) + 1;
      }
    },
    { step: 'initialize', name: 'countRequests' },
  );
  const units = { read: 0, write: 0 };
  const listener = (operation: string, consumed: number) => {
    if (WRITES.has(operation)) units.write += consumed;
    else units.read += consumed;
  };
  const deps = {
    events: new DynamoEventStore(client, tableName, listener),
    directory: new DynamoDirectoryStore(client, tableName, listener),
    baseUrl: 'https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/prod',
    retentionDays: async () => undefined,
  };
  let busy = 0;
  let abandoned = 0;
  const publishOne = async (id: string): Promise<number | undefined> => {
    for (let send = 0; send < SENDS; send++) {
      if (send > 0) await new Promise((resolve) => setTimeout(resolve, CLIENT_BACKOFF_MS * 2 ** (send - 1)));
      try {
        const { event } = await recordEvent(deps, {
          id,
          account: iban,
          type: 'credit_transfer_status_change',
          payload: SAMPLE_PAYLOAD,
        });
        return event.sequence ?? undefined;
      } catch (error) {
        if (!(error instanceof BusyError)) throw error;
        busy++;
      }
    }
    abandoned++;
    return undefined;
  };

  const ids = Array.from({ length: publishers }, () => uuidv7(Date.now()));
  const start = performance.now();
  const sequences = await Promise.all(ids.map(publishOne));
  const wallMs = performance.now() - start;

  // The guarantee the speed must not cost: the stored events hold exactly the sequences 1..stored.
  const stored = sequences.filter((sequence) => sequence !== undefined).sort((a, b) => a - b);
  if (stored.some((sequence, i) => sequence !== i + 1)) {
    throw new Error(`contention bench: sequences not 1..${stored.length}: ${stored.join(',')}`);
  }
  const per = (n: number) => Number((n / Math.max(1, stored.length)).toFixed(2));
  const total = Object.values(requests).reduce((sum, n) => sum + n, 0);
  return {
    publishers,
    requestsPerEvent: Object.fromEntries(Object.entries(requests).map(([op, n]) => [op, per(n)])),
    totalRequestsPerEvent: per(total),
    readUnitsPerEvent: per(units.read),
    writeUnitsPerEvent: per(units.write + refusedWrites),
    busy,
    abandoned,
    wallMs: Math.round(wallMs),
    publishesPerSecond: Math.round((stored.length * 1000) / wallMs),
  };
}
