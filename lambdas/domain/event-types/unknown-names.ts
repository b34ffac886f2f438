/**
 * How the catalog refuses a name it does not hold, in one wording wherever a type or a version is named:
 * a publish, a test event, the catalog's own routes. A refusal names what there is, so the caller can fix
 * the request without another look-up.
 */
import { MAX_KNOWN_TYPES_NAMED } from '#config/catalog-limits';
import { UnprocessableError } from '#domain/errors';

/**
 * Why `type` is refused: it is not in the catalog, and the known types (sorted; the first
 * {@link MAX_KNOWN_TYPES_NAMED} named, the rest counted and found in `GET /event-types`).
 */
export function unknownTypeReason(type: string, known: readonly string[]): string {
  const named = known.slice(0, MAX_KNOWN_TYPES_NAMED).join(', ');
  const more = known.length - MAX_KNOWN_TYPES_NAMED;
  const rest = more > 0 ? `, and ${more} more (GET /event-types lists them all)` : '';
  return `${type} is not an event type of the catalog; the known types are ${named}${rest}`;
}

/** A request's `type` that the catalog does not hold (422 naming the known types). */
export function unknownEventType(type: string, known: readonly string[]): UnprocessableError {
  return new UnprocessableError('type', unknownTypeReason(type, known));
}

/** A request's `version` that `type` does not have; its versions are 1 to `latest` (422). */
export function unknownTypeVersion(type: string, version: number, latest: number): UnprocessableError {
  const has = latest === 1 ? 'version 1' : `versions 1 to ${latest}`;
  return new UnprocessableError('version', `${type} has no version ${version}; it has ${has}`);
}
