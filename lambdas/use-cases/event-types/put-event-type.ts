/**
 * An operator registers an event type, or changes one: a new type gets version 1; a schema or examples
 * other than the latest version's make a new version (a stored version never changes, so receivers and
 * every cache read it alike forever); the description and the deprecation change in place. Built-in
 * types cannot be changed: their versions are Herald's, numbered by its releases, and a version an
 * operator added would collide with the next release's.
 */
import { isDeepStrictEqual } from 'node:util';
import { MAX_EVENT_TYPE_VERSIONS, MAX_OPERATOR_EVENT_TYPES } from '#config/catalog-limits';
import { ConflictError, type InvalidParam, ValidationError } from '#domain/errors';
import { builtInEventType } from '#domain/event-types/catalog';
import {
  type EventTypeDraft,
  type EventTypeWrite,
  eventTypeDraftProblems,
} from '#domain/event-types/event-type-checks';
import type { EventTypeVersion, JsonSchemaObject } from '#domain/event-types/model';
import { noticeEventType } from '#domain/event-types/operational-notices';
import type { EventTypeHead, EventTypeStore } from '#domain/event-types/store-port';

/** What the write did. */
export interface EventTypePut {
  /** The type did not exist before. */
  readonly created: boolean;
  /** The head as stored now. */
  readonly head: EventTypeHead;
}

/** Writes that lose a race with another write of the same type are tried again this often. */
const TRIES = 3;

/**
 * Registers a type or changes it (see the module's note).
 *
 * @throws ConflictError for a built-in type (an operational notice's included), past `MAX_OPERATOR_EVENT_TYPES` types or
 *   `MAX_EVENT_TYPE_VERSIONS` versions, or when other writes of the type kept coming first
 * @throws ValidationError naming every problem of the type as it would be stored (a missing field of a
 *   new type, the schema, each example), at most `MAX_VIOLATIONS_REPORTED`
 */
export async function putEventType(store: EventTypeStore, write: EventTypeWrite): Promise<EventTypePut> {
  if ((builtInEventType(write.type) ?? noticeEventType(write.type)) !== undefined) {
    throw new ConflictError(
      `${write.type} is a built-in type: Herald's releases version it, so it cannot be changed here. ` +
        `Register a type of your own under another name (e.g. acme.${write.type}).`,
    );
  }
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    const head = await store.head(write.type);
    const done = head === undefined ? await create(store, write) : await change(store, head, write);
    if (done !== undefined) return done;
  }
  throw new ConflictError(`${write.type} was changed by other writes meanwhile: send the request again.`);
}

/** A new type; undefined when another write created it first (then it is changed instead). */
async function create(store: EventTypeStore, write: EventTypeWrite): Promise<EventTypePut | undefined> {
  const missing: InvalidParam[] = (['description', 'schema', 'examples'] as const)
    .filter((field) => write[field] === undefined)
    .map((field) => ({ name: field, reason: 'is required to register a new type' }));
  if (isNonEmpty(missing)) throw new ValidationError(missing);
  const draft = checked({
    type: write.type,
    description: write.description ?? '',
    schema: write.schema,
    examples: write.examples ?? [],
  });
  const head = {
    type: write.type,
    description: draft.description,
    deprecated: write.deprecated ?? false,
    latest: 1,
  };
  const outcome = await store.createType(head, versionOf(draft, 1));
  if (outcome === 'full') {
    throw new ConflictError(
      `The catalog holds ${MAX_OPERATOR_EVENT_TYPES} types registered by operators, the most allowed.`,
    );
  }
  return outcome === 'created' ? { created: true, head } : undefined;
}

/** A change of an existing type; undefined when another write changed its versions first. */
async function change(
  store: EventTypeStore,
  head: EventTypeHead,
  write: EventTypeWrite,
): Promise<EventTypePut | undefined> {
  const latest = await store.version(head.type, head.latest);
  if (latest === undefined)
    throw new Error(`event type ${head.type} lacks its latest version ${head.latest}`);
  const draft = checked({
    type: head.type,
    description: write.description ?? head.description,
    schema: write.schema ?? latest.schema,
    examples: write.examples ?? latest.examples,
  });
  const same =
    isDeepStrictEqual(draft.schema, latest.schema) && isDeepStrictEqual(draft.examples, latest.examples);
  if (!same && head.latest >= MAX_EVENT_TYPE_VERSIONS) {
    throw new ConflictError(
      `${head.type} has ${MAX_EVENT_TYPE_VERSIONS} versions, the most allowed: register a new type for a new contract.`,
    );
  }
  const next: EventTypeHead = {
    ...head,
    description: draft.description,
    deprecated: write.deprecated ?? head.deprecated,
    latest: same ? head.latest : head.latest + 1,
  };
  if (same && next.description === head.description && next.deprecated === head.deprecated) {
    return { created: false, head };
  }
  // Conditioned on the whole head read above: a concurrent change of a field this write keeps fails it,
  // and the next try reads that change and keeps it.
  const applied = await store.updateType({
    expected: head,
    description: next.description,
    deprecated: next.deprecated,
    added: same ? undefined : versionOf(draft, next.latest),
  });
  return applied ? { created: false, head: next } : undefined;
}

/** The draft with its description trimmed, when it has no problem. */
function checked(draft: EventTypeDraft): EventTypeDraft & { readonly schema: JsonSchemaObject } {
  const problems = eventTypeDraftProblems(draft);
  if (isNonEmpty(problems)) throw new ValidationError(problems);
  return { ...draft, description: draft.description.trim(), schema: draft.schema as JsonSchemaObject };
}

function versionOf(
  draft: EventTypeDraft & { readonly schema: JsonSchemaObject },
  version: number,
): EventTypeVersion {
  return { version, schema: draft.schema, examples: draft.examples, deprecated: false };
}

function isNonEmpty<T>(items: readonly T[]): items is readonly [T, ...T[]] {
  return items.length > 0;
}
