/**
 * A publish checked against the event type catalog (`domain/event-types/publish-check.ts`), and what makes
 * a publish the same as an event stored under its id. A publish the catalog refuses is still answered with
 * the stored event when its id was published before with the same content: a retry stays idempotent after
 * the catalog changed (a new version became the latest, a transition ended), and a client that lost the
 * first answer learns its event is stored instead of reading a refusal as "not stored".
 */
import { HeraldError } from '#domain/errors';
import type { PublishInput, ValidPublishInput } from '#domain/event-input';
import type { EventTypeCatalog } from '#domain/event-types/catalog-port';
import { checkPayloadType } from '#domain/event-types/publish-check';
import type { EventRecord } from '#domain/model';
import type { EventReads } from '#domain/ports';

/** What checking a publish against the catalog needs. */
export interface TypeCheckDeps {
  /** Resolves from what the container keeps: a healthy publish reads nothing of it. */
  readonly catalog: Pick<EventTypeCatalog, 'resolve'>;
  /**
   * Accept types the catalog does not hold, their payloads only checked to be JSON objects: a deployment's
   * transition (`herald:acceptUnknownEventTypes`), off unless set.
   */
  readonly acceptUnknownTypes?: boolean | undefined;
  /** Read only for a refused publish that names its id. */
  readonly events: Pick<EventReads, 'getEvent'>;
}

/** A publish that passed the catalog, with the version of its type its payload passed. */
export interface CheckedPublishInput extends ValidPublishInput {
  /** Undefined for a type outside the catalog accepted during a transition. */
  readonly typeVersion: number | undefined;
}

/** The checked publish, or the event already stored under its id with the same content. */
export type TypeCheck = { readonly checked: CheckedPublishInput } | { readonly stored: EventRecord };

/**
 * Checks a publish's type and payload against the catalog.
 *
 * @throws the catalog's refusal (`UnprocessableError` naming `type` or `version`, `ValidationError`
 *   naming the payload's fields), unless the publish names an id stored with the same content
 */
export async function checkEventType(
  deps: TypeCheckDeps,
  valid: ValidPublishInput,
  input: PublishInput,
): Promise<TypeCheck> {
  try {
    const resolution = await deps.catalog.resolve(valid.type, valid.version);
    const accept = deps.acceptUnknownTypes ?? false;
    return { checked: { ...valid, typeVersion: checkPayloadType(resolution, valid, accept) } };
  } catch (error) {
    if (!(error instanceof HeraldError) || input.id === undefined) throw error;
    const existing = await deps.events.getEvent(valid.id);
    if (existing === undefined || !sameContent(existing, valid, input)) throw error;
    return { stored: existing };
  }
}

/**
 * Whether a publish is the event stored under its id: the same account, type and payload, the same
 * `triggered_at` when the publish gives one, and the same version when it names one (a publish that names
 * none asked for whatever was the latest when it was stored).
 */
export function sameContent(existing: EventRecord, valid: ValidPublishInput, input: PublishInput): boolean {
  const samePayload = JSON.stringify(JSON.parse(existing.body).payload) === valid.payloadJson;
  const sameTime = input.triggeredAt === undefined || existing.triggeredAt === valid.triggeredAt;
  const sameVersion = valid.version === undefined || existing.typeVersion === valid.version;
  return (
    existing.account === valid.account &&
    existing.type === valid.type &&
    samePayload &&
    sameTime &&
    sameVersion
  );
}
