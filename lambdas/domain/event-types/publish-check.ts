/**
 * The rule at publish: an event's type must be in the catalog, and its payload must pass the version of
 * the type it names (the latest when it names none). During a transition a deployment may accept types
 * the catalog does not hold (`acceptUnknownTypes`): their payloads are only checked to be JSON objects,
 * and their events carry no version.
 */
import { ValidationError } from '#domain/errors';
import type { Resolution } from './catalog-port';
import { reservedNoticeType } from './operational-notices';
import { unknownEventType, unknownTypeVersion } from './unknown-names';
import type { PayloadViolation } from './violations';

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
 * @param resolution - what the catalog found for `publish.type` and `publish.version`
 * @throws ValidationError naming `type` for a notice's type (Herald's own, whatever the transition)
 * @throws UnprocessableError naming `type` when the catalog has no such type (unless accepted), with the
 *   names of the known ones; naming `version` when the type has no such version
 * @throws ValidationError naming `version` for a type accepted without being in the catalog; else one
 *   param per violation of the schema, named `payload` + its JSON pointer (`payload/creditor/iban`;
 *   `payload` for the whole), at most `MAX_VIOLATIONS_REPORTED`
 */
export function checkPayloadType(
  resolution: Resolution,
  publish: TypedPayload,
  acceptUnknownTypes: boolean,
): number | undefined {
  if (resolution.kind === 'reserved') throw reservedNoticeType(publish.type);
  if (resolution.kind === 'unknown-version') {
    throw unknownTypeVersion(publish.type, resolution.version, resolution.latest);
  }
  if (resolution.kind === 'unknown-type') {
    if (!acceptUnknownTypes) throw unknownEventType(publish.type, resolution.known);
    if (publish.version !== undefined) {
      throw new ValidationError(
        'version',
        `${publish.type} is not in the catalog, so it has no versions: leave version out`,
      );
    }
    return undefined;
  }
  const check = resolution.check(publish.payload);
  if (check.ok) return check.version;
  const named = ({ pointer, reason }: PayloadViolation) => ({ name: `payload${pointer}`, reason });
  const [first, ...rest] = check.violations;
  const params = [named(first), ...rest.map(named)] as const;
  const count = params.length + check.omitted;
  const listed = check.omitted === 0 ? '' : `, the first ${params.length}`;
  const problems = `${count} ${count === 1 ? 'problem' : 'problems'}${listed}`;
  throw new ValidationError(
    params,
    `payload does not pass ${publish.type} version ${check.version}: ${problems} at ${params.map((param) => param.name).join(', ')}`,
  );
}
