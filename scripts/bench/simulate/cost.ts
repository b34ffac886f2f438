/**
 * Capacity units per delivered event, split by function (the publish API, the consumer, the reconciler),
 * against the floor of Herald's design with account logs and sequences:
 *
 * - publish: the log's latest sequence (an eventually consistent key read, 0.5 read unit), the account
 *   (which organization owns it, 0.5), the id's claim (1 write: the id must be unique whatever sequence the
 *   event ends at, and one conditional put checks one key), the event at its sequence (1 write: the log
 *   item; its conditional put makes the sequence unique) and its `by-org` index entry (1 index write:
 *   `GET /events` lists by organization);
 * - first-try delivery: the event (a consistent read, 1 unit: the message carries only its place), the
 *   attempt (1 write: the record of what was sent).
 *
 * So 4 write and 2 read units per event delivered at the first try. The account and organization reads
 * of the consumer (fresh per batch, shared by the batch's events of that account) are above the floor.
 */
import type { DynamoMeter } from './aws/dynamodb/meter';

/** The design's floor per event delivered at the first try. */
export const FLOOR = { readUnits: 2, writeUnits: 4 } as const;

/**
 * On-demand prices per million request units (us-east-1 after the November 2024 price cut: $0.625 per
 * million write and $0.125 per million read request units; an **assumption** to check against
 * https://aws.amazon.com/dynamodb/pricing/on-demand/). Only their ratio matters for the comparison.
 */
export const PRICE_PER_MILLION = { read: 0.125, write: 0.625 } as const;

/** Units per delivered event of one function (operation prefix). */
export interface UnitsPerEvent {
  readonly role: string;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly indexWriteUnits: number;
}

/** Units per delivered event for each function, and in total. */
export function unitsPerEvent(dynamo: DynamoMeter, delivered: number): UnitsPerEvent[] {
  const byRole = new Map<string, { read: number; write: number; index: number }>();
  for (const [operation, counts] of dynamo.operations) {
    const role = operation.slice(0, operation.indexOf('.'));
    const sum = byRole.get(role) ?? { read: 0, write: 0, index: 0 };
    sum.read += counts.readUnits;
    sum.write += counts.writeUnits;
    sum.index += counts.indexWriteUnits;
    byRole.set(role, sum);
  }
  const rows = [...byRole].map(([role, sum]) => ({
    role,
    readUnits: sum.read / delivered,
    writeUnits: sum.write / delivered,
    indexWriteUnits: sum.index / delivered,
  }));
  const total = rows.reduce(
    (t, row) => ({
      role: 'total',
      readUnits: t.readUnits + row.readUnits,
      writeUnits: t.writeUnits + row.writeUnits,
      indexWriteUnits: t.indexWriteUnits + row.indexWriteUnits,
    }),
    { role: 'total', readUnits: 0, writeUnits: 0, indexWriteUnits: 0 },
  );
  return [...rows, total];
}

/** Dollars per million events at {@link PRICE_PER_MILLION}. */
export function dollarsPerMillion(units: { readUnits: number; writeUnits: number }): number {
  return units.readUnits * PRICE_PER_MILLION.read + units.writeUnits * PRICE_PER_MILLION.write;
}
