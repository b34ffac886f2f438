/**
 * Recording a batch of published events (`POST /events/batch`, the library's `publishEvents`): each entry
 * is checked and answered exactly as a single publish (`record-event.ts`, the catalog's check of
 * `type-check.ts` included), one bad entry refusing itself only; the entries of one account are stored
 * together, taking consecutive sequences in the batch's order from one ticket of the account's log
 * (`store-in-log.ts`).
 */
import { PUBLISH_BATCH_CONCURRENCY, PUBLISH_BATCH_LIMIT } from '#config/limits';
import { ValidationError } from '#domain/errors';
import { type PublishInput, validatePublishInput } from '#domain/event-input';
import { inParallel } from './in-parallel';
import {
  answer,
  draftEntry,
  type RecordEventDeps,
  type RecordedEvent,
  storeDeps,
  unknownAccount,
  validationOptions,
} from './record-event';
import { type StoreOutcome, storeAllInLog } from './store-in-log';
import { type CheckedPublishInput, checkEventType } from './type-check';

/**
 * One entry's answer: the event recorded now or stored before under its id (as {@link RecordedEvent}), or
 * the error that refused it (a `HeraldError` naming the entry's field, as a single publish would throw;
 * anything else is a failure of the service).
 */
export type BatchEntryResult = RecordedEvent | { readonly error: unknown };

/**
 * Records up to {@link PUBLISH_BATCH_LIMIT} events and answers one result per entry, in order. Entries
 * are validated and checked against the catalog one by one (a refused one names its field as a single
 * publish does: the caller adds its index), grouped by account (each account read once; an unknown one refuses its entries), and each
 * account's new entries stored together; accounts in parallel. Idempotent by id like a single publish:
 * sending a batch again, or part of it, stores nothing twice and answers the stored events.
 *
 * @throws ValidationError when there are more than {@link PUBLISH_BATCH_LIMIT} entries (nothing is read)
 */
export async function recordEvents(
  deps: RecordEventDeps,
  inputs: readonly PublishInput[],
): Promise<BatchEntryResult[]> {
  if (inputs.length > PUBLISH_BATCH_LIMIT) {
    throw new ValidationError(
      'events',
      `at most ${PUBLISH_BATCH_LIMIT} events per batch, got ${inputs.length}`,
    );
  }
  const results = new Array<BatchEntryResult>(inputs.length);
  // In parallel: an entry the catalog refuses reads its id's event (`type-check.ts`).
  const checked = await inParallel(inputs, PUBLISH_BATCH_CONCURRENCY, async (input, index) => {
    try {
      const check = await checkEventType(deps, validatePublishInput(input, validationOptions(deps)), input);
      if ('checked' in check) return check.checked;
      results[index] = { created: false, event: check.stored };
    } catch (error) {
      results[index] = { error };
    }
    return undefined;
  });
  const byAccount = new Map<string, { index: number; valid: CheckedPublishInput }[]>();
  for (const [index, valid] of checked.entries()) {
    if (valid) byAccount.set(valid.account, [...(byAccount.get(valid.account) ?? []), { index, valid }]);
  }
  const retentionDays = byAccount.size === 0 ? undefined : await deps.retentionDays();
  const store = storeDeps(deps);
  await inParallel([...byAccount], PUBLISH_BATCH_CONCURRENCY, async ([iban, group]) => {
    let outcomes: StoreOutcome[];
    try {
      const account = await deps.directory.getAccount(iban);
      if (!account) {
        for (const { index } of group) results[index] = { error: unknownAccount(iban) };
        return;
      }
      outcomes = await storeAllInLog(
        store,
        group.map(({ valid }) => draftEntry(deps, account, valid, retentionDays)),
      );
    } catch (error) {
      // A failure before any entry was claimed (reading the account or the log): the group is refused.
      for (const { index } of group) results[index] = { error };
      return;
    }
    for (const [k, { index, valid }] of group.entries()) {
      const outcome = outcomes[k];
      if (outcome === undefined || 'error' in outcome) {
        results[index] = { error: outcome?.error };
        continue;
      }
      try {
        results[index] = answer(outcome, valid, inputs[index] as PublishInput);
      } catch (error) {
        results[index] = { error };
      }
    }
  });
  return results;
}
