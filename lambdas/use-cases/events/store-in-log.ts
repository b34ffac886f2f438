/**
 * Storing new events of one account at sequences of its log, each with its id claimed first (docs/design.md,
 * "Publishing"). Which sequences to try is `sequencing.ts`: a single publish to a quiet log tries the next
 * sequence (claim, then event: the cost it always had); several events, or a hot log, take one ticket for
 * all of them. The claim makes the id unique whatever sequence the event ends at; the event's conditional
 * put makes the sequence unique; an event whose sequence another one took moves its claim to a new ticket.
 * A duplicate publish of an id finds the claim and answers the event stored under it (`id-claims.ts`).
 */
import { randomUUID } from 'node:crypto';
import { PUBLISH_BATCH_CONCURRENCY, PUBLISH_BUDGET_MS, PUBLISH_SEQUENCE_TRIES } from '#config/limits';
import type { IdClaim } from '#domain/ports';
import { type ResolvedClaim, resolveClaim } from './id-claims';
import { inParallel } from './in-parallel';
import type { DraftEntry, EventDraft, StoreInLogDeps, StoreOutcome, StoreResult } from './log-drafts';
import { type Claimed, putUntilStored, settle, storeFirst } from './log-puts';
import { giveBack, numberingOf, takeSequences } from './sequencing';

export type { DraftEntry, EventDraft, StoreInLogDeps, StoreOutcome, StoreResult } from './log-drafts';

/**
 * Stores one event, or answers the event already stored under its id: {@link storeAllInLog} of one.
 * Quiet log, nobody contending: one eventually consistent read of the log's tail, the claim, the event.
 *
 * @throws BusyError when the event's sequence was taken {@link PUBLISH_SEQUENCE_TRIES} times, or still
 *   after {@link PUBLISH_BUDGET_MS}, or a concurrent publish of the same id has not stored its event yet;
 *   nothing of this publish is left but a claim whose lease it ended, which the resend takes over
 */
export async function storeInLog(
  deps: StoreInLogDeps,
  draft: EventDraft,
  body: (sequence: number) => string,
): Promise<StoreResult> {
  const [outcome] = await storeAllInLog(deps, [{ draft, body }]);
  if (outcome === undefined || 'error' in outcome) throw outcome?.error;
  return outcome;
}

/**
 * Stores events of ONE account (same organization and IBAN), each once under its id, and answers one
 * outcome per entry in order. The new ones take consecutive sequences in their order from one ticket
 * (except an entry whose claim a concurrent duplicate took meanwhile, or whose sequence a publish that
 * read the log before it turned hot took: it takes the next free one); an id already published answers
 * its stored event, never a new sequence. An entry that fails refuses itself, not the others.
 */
export async function storeAllInLog(
  deps: StoreInLogDeps,
  entries: readonly DraftEntry[],
): Promise<StoreOutcome[]> {
  const [first] = entries;
  if (first === undefined) return [];
  const started = deps.now();
  // A batch may name one id twice: the first occurrence is stored, the others answer its event.
  const firstOf = new Map<string, number>();
  const unique = entries.filter((entry, index) => {
    if (firstOf.has(entry.draft.id)) return false;
    firstOf.set(entry.draft.id, index);
    return true;
  });
  const numbering = await numberingOf(deps, first.draft, unique.length === 1);
  const outcomes =
    numbering.quiet && unique.length === 1
      ? [await settle(() => quietTry(deps, first, numbering.next, started))]
      : await storeWithTicket(
          deps,
          unique,
          numbering.quiet ? { above: numbering.next - 1 } : 'head',
          started,
        );
  const byId = new Map(unique.map((entry, k) => [entry.draft.id, outcomes[k] as StoreOutcome]));
  return entries.map((entry, index) => {
    const outcome = byId.get(entry.draft.id) as StoreOutcome;
    if (firstOf.get(entry.draft.id) === index || 'error' in outcome) return outcome;
    return { created: false, existing: outcome.created ? outcome.event : outcome.existing };
  });
}

/** A quiet log's single publish: the claim and the event at the next sequence; a ticket only if it loses. */
async function quietTry(
  deps: StoreInLogDeps,
  entry: DraftEntry,
  next: number,
  started: number,
): Promise<StoreResult> {
  const claim = newClaim(deps, entry.draft, next);
  const result = await deps.events.claimId(claim);
  const resolved: ResolvedClaim = result.claimed
    ? { claim }
    : await resolveClaim(deps, result, mine(claim, entry));
  if ('existing' in resolved) return { created: false, existing: resolved.existing };
  return putUntilStored(
    deps,
    { entry, index: 0, claim: resolved.claim, ticketedAt: resolved.ticketedAt },
    started,
  );
}

/**
 * Several events, or one on a hot log: their ids' claims read first (a published id costs no sequence,
 * a crashed publish's orphan is taken over at its own sequence), one ticket for the new ones, their
 * claims, then the events: the ticket's first alone, then all the others together.
 */
async function storeWithTicket(
  deps: StoreInLogDeps,
  entries: readonly DraftEntry[],
  from: 'head' | { readonly above: number },
  started: number,
): Promise<StoreOutcome[]> {
  const outcomes = new Array<StoreOutcome>(entries.length);
  const hold = (held: Claimed[], index: number, resolved: ResolvedClaim | { readonly error: unknown }) => {
    if ('claim' in resolved) {
      const entry = entries[index] as DraftEntry;
      held.push({ entry, index, claim: resolved.claim, ticketedAt: resolved.ticketedAt });
    } else
      outcomes[index] = 'existing' in resolved ? { created: false, existing: resolved.existing } : resolved;
  };
  const found = await deps.events.readClaims(entries.map((entry) => entry.draft.id));
  const takenOver: Claimed[] = [];
  await inParallel(entries, PUBLISH_BATCH_CONCURRENCY, async (entry, index) => {
    const claim = found.get(entry.draft.id);
    if (claim === undefined) return;
    const resolved = await settle(() =>
      resolveClaim(deps, claim, mine(newClaim(deps, entry.draft, 0), entry)),
    );
    hold(takenOver, index, resolved);
  });
  const fresh = entries.flatMap((entry, index) => (found.has(entry.draft.id) ? [] : [{ entry, index }]));
  const ranged: Claimed[] = [];
  const ticket =
    fresh.length === 0
      ? undefined
      : await settle(() => takeSequences(deps, logOf(entries), fresh.length, from));
  await inParallel(fresh, PUBLISH_BATCH_CONCURRENCY, async ({ entry, index }, k) => {
    if (ticket === undefined || 'error' in ticket) {
      outcomes[index] = { error: ticket?.error };
      return;
    }
    const claim = newClaim(deps, entry.draft, ticket.first + k);
    const resolved = await settle(async (): Promise<ResolvedClaim> => {
      const result = await deps.events.claimId(claim);
      if (result.claimed) return { claim, ticketedAt: ticket.at };
      // Claimed since the read (a concurrent duplicate): this sequence of the ticket is given back.
      await giveBack(deps, entry.draft, claim.sequence, ticket.at);
      return resolveClaim(deps, result, mine(claim, entry));
    });
    // Its own sequence of the ticket, or (a duplicate's orphan taken over) the one that claim named.
    const inRange = 'claim' in resolved && resolved.claim === claim;
    hold(inRange ? ranged : takenOver, index, resolved);
  });
  const rest = await storeFirst(
    deps,
    ranged.sort((a, b) => a.index - b.index),
    started,
    outcomes,
  );
  await inParallel([...rest, ...takenOver], PUBLISH_BATCH_CONCURRENCY, async (item) => {
    outcomes[item.index] = await settle(() => putUntilStored(deps, item, started));
  });
  return outcomes;
}

/** The log of entries of one account, with its floor. */
function logOf(entries: readonly DraftEntry[]): EventDraft {
  return (entries[0] as DraftEntry).draft;
}

/** A new claim of the draft's id at `sequence`, owned by this publish. */
function newClaim(deps: StoreInLogDeps, draft: EventDraft, sequence: number): IdClaim {
  return {
    id: draft.id,
    orgId: draft.orgId,
    account: draft.account,
    sequence,
    owner: (deps.newOwner ?? randomUUID)(),
    claimedAt: deps.now(),
    expiresAt: draft.expiresAt,
  };
}

/** What resolving a found claim needs to know of this publish: its claim's fields and its log's floor. */
function mine(claim: IdClaim, entry: DraftEntry) {
  const { sequence: _sequence, claimedAt: _at, ...fields } = claim;
  return { ...fields, sequenceFloor: entry.draft.sequenceFloor };
}
