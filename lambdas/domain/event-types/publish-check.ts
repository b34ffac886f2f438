/**
 * The rule at publish: an event's type must be in the catalog, and its payload must pass the version of
 * the type it names (the latest when it names none). During a transition a deployment may accept types
 * the catalog does not hold (`acceptUnknownTypes`): their payloads are only checked to be JSON objects,
 * and their events carry no version.
 */
import { MAX_KNOWN_TYPES_NAMED } from '#config/limits';
import { UnprocessableError, ValidationError } from '#domain/errors';
import type { CatalogLookup } from './catalog-port';
import { validatePayload } from './payload-validation';

/** What is checked of a publish: its type, the version it names, and its payload as parsed JSON. */
export interface TypedPayload {
  readonly type: string;
  /** Undefined: the type's latest. */
  readonly version: number | undefined;
  readonly payload: unknown;
}

/**
 * The version of its type a publish's payload passed: what the event records (`type_version`); undefined
 * for a type outside the catalog accepted by `acceptUnknownTypes`.
 *
 * @param lookup - what the catalog knows of `publish.type`
 * @throws UnprocessableError naming `type` when the catalog has no such type (unless accepted), with the
 *   names of the known ones (at most {@link MAX_KNOWN_TYPES_NAMED})
 * @throws ValidationError naming `version` when the type has no such version (or is accepted without being
 *   in the catalog); else one param per violation of the schema, named `payload` + its JSON pointer
 *   (`payload/creditor/iban`; `payload` for the whole), at most `MAX_VIOLATIONS_REPORTED`
 */
export function checkPayloadType(
  lookup: CatalogLookup,
  publish: TypedPayload,
  acceptUnknownTypes: boolean,
): number | undefined {
  if (!lookup.known) {
    if (!acceptUnknownTypes) throw unknownType(publish.type, lookup.types);
    if (publish.version !== undefined) {
      throw new ValidationError(
        'version',
        `${publish.type} is not in the catalog, so it has no versions: leave version out`,
      );
    }
    return undefined;
  }
  const check = validatePayload(lookup.type, publish.version, publish.payload);
  if (check.ok) return check.version;
  const params = check.violations.map(({ pointer, reason }) => ({ name: `payload${pointer}`, reason }));
  const count = params.length + check.omitted;
  const listed = check.omitted === 0 ? '' : `, the first ${params.length}`;
  const problems = `${count} ${count === 1 ? 'problem' : 'problems'}${listed}`;
  throw new ValidationError(
    params,
    `payload does not pass ${publish.type} version ${check.version}: ${problems} at ${params.map((param) => param.name).join(', ')}`,
  );
}

/** The refusal of a type the catalog does not hold, naming the ones it does. */
function unknownType(type: string, known: readonly string[]): UnprocessableError {
  const named = known.slice(0, MAX_KNOWN_TYPES_NAMED).join(', ');
  const more =
    known.length > MAX_KNOWN_TYPES_NAMED ? `, and ${known.length - MAX_KNOWN_TYPES_NAMED} more` : '';
  return new UnprocessableError(
    'type',
    `${type} is not an event type of the catalog; the known types are ${named}${more}`,
  );
}
