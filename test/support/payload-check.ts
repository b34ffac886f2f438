/**
 * A payload checked against one version of a compiled type, as the catalog's `resolve` then `check` do,
 * for the tests of the schemas themselves.
 */
import {
  type CompiledEventType,
  checkPayload,
  type PayloadCheck,
} from '#domain/event-types/payload-validation';

/** Checks `payload` against version `version` of `entry` (the latest when absent). */
export function checkVersion(
  entry: CompiledEventType,
  version: number | undefined,
  payload: unknown,
): PayloadCheck {
  const number = version ?? entry.latest;
  const found = entry.versions.get(number);
  if (found === undefined) throw new Error(`${entry.definition.type} has no version ${number}`);
  return checkPayload(found.schema, number, payload);
}
