/**
 * Valid payloads of the built-in event types, for every test that publishes: a catalog example, with the
 * fields a test sets to tell its events apart (fields the type has, such as `transfer_id` or
 * `remittance_information`: a built-in payload takes no other).
 */
import { builtInEventType } from '#domain/event-types/catalog';
import { latestVersion } from '#domain/event-types/model';

/** The built-in types by a short name. */
export const TRANSFER = 'credit_transfer_status_change';
export const CREDIT = 'credit_received';
export const DEBIT = 'direct_debit_status_change';

/** A copy of the example `name` of a built-in type's latest version (its first when no name is given). */
export function examplePayload(type: string, name?: string): Record<string, unknown> {
  const definition = builtInEventType(type);
  if (definition === undefined) throw new Error(`no built-in type ${type}`);
  const examples = latestVersion(definition).examples;
  const example = name === undefined ? examples[0] : examples.find((candidate) => candidate.name === name);
  if (example === undefined) throw new Error(`${type} has no example ${name}`);
  return structuredClone(example.payload) as Record<string, unknown>;
}

/** A settled transfer (`credit_transfer_status_change`), with `fields` set over the example's. */
export function transferPayload(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...examplePayload(TRANSFER, 'settled'), ...fields };
}

/** Money received (`credit_received`), with `fields` set over the example's. */
export function creditPayload(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...examplePayload(CREDIT, 'invoice_paid'), ...fields };
}

/** A collected direct debit (`direct_debit_status_change`), with `fields` set over the example's. */
export function debitPayload(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...examplePayload(DEBIT, 'collected'), ...fields };
}
