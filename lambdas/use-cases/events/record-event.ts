import { ConflictError, NotFoundError } from '#domain/errors';
import { type PublishInput, type PublishInputOptions, validatePublishInput } from '#domain/event-input';
import type { Account, EventRecord } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';
import { webhookBody } from '#domain/webhook-body';
import { type DraftEntry, type StoreInLogDeps, type StoreResult, storeInLog } from './store-in-log';
import { type CheckedPublishInput, checkEventType, sameContent, type TypeCheckDeps } from './type-check';

/** What recording an event needs. */
export interface RecordEventDeps
  extends Pick<StoreInLogDeps, 'sleep' | 'newOwner'>,
    Omit<TypeCheckDeps, 'events'> {
  readonly events: StoreInLogDeps['events'] & TypeCheckDeps['events'];
  /** Accounts only: nothing is signed at publish, so no organization (and no token) is read. */
  readonly directory: Pick<DirectoryStore, 'getAccount'>;
  /** The API's public base URL, for the `_links` inside the webhook body. */
  readonly baseUrl: string;
  readonly maxPayloadBytes?: number | undefined;
  /**
   * The deployment's event retention in days (undefined keeps events), read from the table's settings so
   * that every event gets it however it is published; callers cache it (see `createPublisher`).
   */
  readonly retentionDays: () => Promise<number | undefined>;
  readonly now?: () => Date;
}

/**
 * The deployment's event retention from the table's settings item, read once (a failed read is tried
 * again by the next publish): every publisher, the library's and the `POST /events` route's, stamps
 * `expires_at` through this one reader, so none can forget or mistype the number.
 */
export function settingsRetention(
  directory: Pick<DirectoryStore, 'getEventRetentionDays'>,
): () => Promise<number | undefined> {
  let retention: Promise<number | undefined> | undefined;
  return () => {
    retention ??= directory.getEventRetentionDays().catch((error: unknown) => {
      retention = undefined;
      throw error;
    });
    return retention;
  };
}

/** A recorded event and whether this call created it. */
export interface RecordedEvent {
  readonly created: boolean;
  readonly event: EventRecord;
}

/**
 * Records a published event, whoever publishes it (the library's `publishEvent`, `POST /events`), for
 * the organization of its account, at the next sequence of the account's log (`store-in-log.ts`), once
 * its type and payload passed the catalog (`type-check.ts`). The body is fixed now, so every attempt
 * sends identical bytes; it is signed by each attempt, with the tokens that sign then. Publishing an id
 * again with the same content returns the stored event (even when the catalog would refuse it now);
 * other content is a conflict.
 *
 * @throws ValidationError for bad input (a payload its type's schema refuses: one param per violation),
 *   UnprocessableError for a type outside the catalog, NotFoundError for an unknown account,
 *   ConflictError for a reused id with other content; nothing is stored in any of these cases.
 *   BusyError (retry) when no sequence could be taken now.
 */
export async function recordEvent(deps: RecordEventDeps, input: PublishInput): Promise<RecordedEvent> {
  const check = await checkEventType(deps, validatePublishInput(input, validationOptions(deps)), input);
  if ('stored' in check) return { created: false, event: check.stored };
  const valid = check.checked;
  const account = await deps.directory.getAccount(valid.account);
  if (!account) throw unknownAccount(valid.account);
  const entry = draftEntry(deps, account, valid, await deps.retentionDays());
  return answer(await storeInLog(storeDeps(deps), entry.draft, entry.body), valid, input);
}

/** The options of {@link validatePublishInput} a publisher's deps set. */
export function validationOptions(deps: RecordEventDeps): PublishInputOptions {
  return {
    ...(deps.maxPayloadBytes === undefined ? {} : { maxPayloadBytes: deps.maxPayloadBytes }),
    ...(deps.now ? { now: deps.now } : {}),
  };
}

/** The refusal of an event for an account that is not registered (or deleted). */
export function unknownAccount(iban: string): NotFoundError {
  return new NotFoundError(`account: no account ${iban} is registered.`);
}

/** The store's deps from a publisher's: its clock in epoch ms. */
export function storeDeps(deps: RecordEventDeps): StoreInLogDeps {
  const clock = deps.now ?? (() => new Date());
  return { ...deps, now: () => clock().getTime() };
}

/** A validated event as its account's log stores it: the draft, and its body for any sequence. */
export function draftEntry(
  deps: Pick<RecordEventDeps, 'baseUrl' | 'now'>,
  account: Account,
  valid: CheckedPublishInput,
  retentionDays: number | undefined,
): DraftEntry {
  const now = (deps.now ?? (() => new Date()))();
  const draft = {
    id: valid.id,
    orgId: account.orgId,
    account: valid.account,
    type: valid.type,
    typeVersion: valid.typeVersion,
    triggeredAt: valid.triggeredAt,
    webhookStatus: account.webhookUrl ? ('pending' as const) : ('skipped' as const),
    expiresAt:
      retentionDays === undefined ? undefined : Math.floor(now.getTime() / 1000) + retentionDays * 86_400,
    sequenceFloor: account.sequenceFloor ?? 0,
  };
  // The body carries the sequence, so it is built for whichever sequence the event gets.
  const body = (sequence: number) =>
    webhookBody({ ...draft, sequence, payloadJson: valid.payloadJson, baseUrl: deps.baseUrl });
  return { draft, body };
}

/**
 * What a publish answers for its stored result: the created event, or the event already stored under
 * the id when its content is the same (`sameContent`).
 *
 * @throws ConflictError for an id stored with other content
 */
export function answer(result: StoreResult, valid: CheckedPublishInput, input: PublishInput): RecordedEvent {
  if (result.created) return { created: true, event: result.event };
  if (sameContent(result.existing, valid, input)) return { created: false, event: result.existing };
  throw new ConflictError(`id: event ${valid.id} already exists with different content.`);
}
