/**
 * DynamoDB's capacity rules: what one operation costs in read and write units, on the table and on each
 * global secondary index it touches. A write is 1 unit per started 1 KB of item, a strongly consistent
 * read 1 unit per started 4 KB (half for eventually consistent), a transactional one twice that; a Query
 * rounds the sum of the items it read, not each item; an index is written once per change of an entry
 * (twice when the index key changes: a delete and a put). Sources in docs/simulation.md.
 */

/** What an operation reads or writes, declared by a metered port. */
export type Charge = ReadCharge | QueryCharge | WriteCharge;

/** A GetItem (or one item of a BatchGetItem / TransactGetItems). */
export interface ReadCharge {
  readonly kind: 'read';
  /** The item's partition key value, e.g. `EVENT#e1`. */
  readonly key: string;
  /** Item size; default 1 KB. */
  readonly sizeKb?: number;
  readonly consistent?: boolean;
  readonly transactional?: boolean;
}

/** A Query of one partition key value (of the table or of an index). */
export interface QueryCharge {
  readonly kind: 'query';
  readonly key: string;
  /** The index queried; the table when absent. */
  readonly index?: string;
  /** Total size of the items read (before any filter). */
  readonly sizeKb: number;
  /** Only the table may be read consistently. */
  readonly consistent?: boolean;
}

/** A PutItem, UpdateItem or DeleteItem (or one action of a TransactWriteItems / BatchWriteItem). */
export interface WriteCharge {
  readonly kind: 'write';
  readonly key: string;
  /** The larger of the item before and after the write; default 1 KB. */
  readonly sizeKb?: number;
  readonly transactional?: boolean;
  /** Index entries this write puts or deletes. */
  readonly indexes?: readonly IndexWrite[];
}

/** One write of an index entry (an index key change is two: the old entry's delete, the new one's put). */
export interface IndexWrite {
  readonly index: string;
  /** The index partition key value of the entry. */
  readonly key: string;
  /** Size of the projected entry; default 1 KB. */
  readonly sizeKb?: number;
}

/** Units drawn from one partition of the table or of an index. */
export interface Draw {
  /** `undefined` for the table, else the index name. */
  readonly index: string | undefined;
  readonly key: string;
  readonly access: 'read' | 'write';
  readonly units: number;
}

/** Write units of an item of `sizeKb` (at least one). */
export function writeUnits(sizeKb = 1, transactional = false): number {
  return Math.max(1, Math.ceil(sizeKb)) * (transactional ? 2 : 1);
}

/** Read units of `sizeKb` read in one go (at least one 4 KB unit). */
export function readUnits(sizeKb = 1, consistent = false, transactional = false): number {
  const blocks = Math.max(1, Math.ceil(sizeKb / 4));
  if (transactional) return blocks * 2;
  return consistent ? blocks : blocks / 2;
}

/** The draws of a list of charges (all-or-nothing: one request). */
export function drawsOf(charges: readonly Charge[]): Draw[] {
  const draws: Draw[] = [];
  for (const charge of charges) {
    switch (charge.kind) {
      case 'read':
        draws.push({
          index: undefined,
          key: charge.key,
          access: 'read',
          units: readUnits(charge.sizeKb, charge.consistent, charge.transactional),
        });
        break;
      case 'query':
        if (charge.index !== undefined && charge.consistent) {
          throw new RangeError('a global secondary index cannot be read consistently');
        }
        draws.push({
          index: charge.index,
          key: charge.key,
          access: 'read',
          units: readUnits(charge.sizeKb, charge.consistent),
        });
        break;
      case 'write':
        draws.push({
          index: undefined,
          key: charge.key,
          access: 'write',
          units: writeUnits(charge.sizeKb, charge.transactional),
        });
        for (const entry of charge.indexes ?? []) {
          draws.push({
            index: entry.index,
            key: entry.key,
            access: 'write',
            units: writeUnits(entry.sizeKb),
          });
        }
        break;
    }
  }
  return draws;
}
