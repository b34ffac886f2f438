/**
 * The catalog (`domain/event-types/catalog-port.ts`) over the operators' store: the built-in event types
 * and the ones operators registered, as one. `resolve` is what a publish calls: a type's version ready to check a payload
 * against, or why there is none. Each container keeps what it read: versions never change once stored,
 * so a compiled version is kept (the least recently used of {@link CATALOG_CACHED_VERSIONS} go first);
 * a type's head (latest version, deprecation) is trusted for `headTtlMs`, and a type that does not
 * exist is never remembered, so a type registered a moment ago is accepted at once everywhere.
 */
import { NotFoundError } from '#domain/errors';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import type { EventTypeCatalog } from '#domain/event-types/catalog-port';
import { type CompiledSchema, compileSchema } from '#domain/event-types/compiled-schema';
import type { CatalogEntry, EventTypeVersion } from '#domain/event-types/model';
import { noticeEventType } from '#domain/event-types/operational-notices';
import {
  type CompiledEventType,
  checkPayload,
  compileEventType,
} from '#domain/event-types/payload-validation';
import type { EventTypeHead, EventTypeStore } from '#domain/event-types/store-port';
import { unknownTypeReason } from '#domain/event-types/unknown-names';
import { isNoticeKind, NOTICE_KINDS } from '#domain/notices/notice';

/**
 * How long the publish path trusts a type's head it read: a new latest version becomes the default, and a
 * deprecation shows, within this time on every container. A publish naming a version above the head it
 * trusts reads the head again, so an explicit new version works at once.
 */
export const CATALOG_HEAD_TTL_MS = 60_000;

/**
 * Versions one container keeps read and compiled. A version with its examples is at most about 120 KB,
 * so the cache holds at most about 12 MB of them however large the catalog.
 */
export const CATALOG_CACHED_VERSIONS = 100;

/**
 * The type of the catalog named so.
 *
 * @throws NotFoundError when the catalog has no such type, naming the known ones
 */
export async function requireEventType(catalog: EventTypeCatalog, type: string): Promise<CatalogEntry> {
  const entry = await catalog.get(type);
  if (entry === undefined) throw new NotFoundError(unknownTypeReason(type, await catalog.names()));
  return entry;
}

/** What the catalog reads with. */
export interface CatalogOptions {
  readonly store: EventTypeStore;
  /** Epoch milliseconds. */
  readonly now: () => number;
  /**
   * How long a head read is trusted: {@link CATALOG_HEAD_TTL_MS} on the publish path; 0 (the default)
   * reads it at every use, for the routes that show the catalog, which must show a change at once.
   */
  readonly headTtlMs?: number;
}

/** A stored version as kept: compiled at its first check. */
interface KeptVersion {
  readonly version: EventTypeVersion;
  compiled?: CompiledSchema;
}

let builtIns: ReadonlyMap<string, CompiledEventType> | undefined;

/** The built-in types, compiled on first use (a function that never resolves one pays nothing). */
function builtIn(type: string): CompiledEventType | undefined {
  builtIns ??= new Map(
    BUILT_IN_EVENT_TYPES.map((definition) => [definition.type, compileEventType(definition)]),
  );
  return builtIns.get(type);
}

const BUILT_IN_NAMES = BUILT_IN_EVENT_TYPES.map((definition) => definition.type);

/** A catalog over the operators' store and the built-in types. */
export function createEventTypeCatalog(options: CatalogOptions): EventTypeCatalog {
  const { store, now } = options;
  const ttl = options.headTtlMs ?? 0;
  const heads = new Map<string, { readonly at: number; readonly head: Promise<EventTypeHead | undefined> }>();
  const versions = new Map<string, Promise<KeptVersion>>();

  /** Forgets a cached read that failed, or (for heads) found nothing, unless a newer read replaced it. */
  const forget = <T>(map: Map<string, T>, key: string, entry: T) => {
    if (map.get(key) === entry) map.delete(key);
  };

  const headOf = (type: string, fresh = false): Promise<EventTypeHead | undefined> => {
    const cached = heads.get(type);
    if (!fresh && cached !== undefined && now() - cached.at < ttl) return cached.head;
    const entry = { at: now(), head: store.head(type) };
    heads.set(type, entry);
    entry.head.then(
      (head) => head === undefined && forget(heads, type, entry),
      () => forget(heads, type, entry),
    );
    return entry.head;
  };

  const versionOf = (type: string, number: number): Promise<KeptVersion> => {
    const key = `${type}#${number}`;
    const cached = versions.get(key);
    if (cached !== undefined) {
      // Most recently used last: the first key is the one to let go.
      versions.delete(key);
      versions.set(key, cached);
      return cached;
    }
    const read = store.version(type, number).then((version): KeptVersion => {
      if (version === undefined)
        throw new Error(`event type ${type} lacks version ${number}, which its head names`);
      return { version };
    });
    versions.set(key, read);
    read.catch(() => forget(versions, key, read));
    const oldest = versions.keys().next().value;
    if (versions.size > CATALOG_CACHED_VERSIONS && oldest !== undefined) versions.delete(oldest);
    return read;
  };

  const known = async (): Promise<string[]> => [...BUILT_IN_NAMES, ...(await store.typeNames())].sort();

  const get = async (type: string): Promise<CatalogEntry | undefined> => {
    const notice = noticeEventType(type);
    if (notice !== undefined) return { definition: notice, builtIn: true, operational: true };
    const shipped = builtIn(type);
    if (shipped !== undefined) return { definition: shipped.definition, builtIn: true };
    const head = await headOf(type);
    if (head === undefined) return undefined;
    const numbers = Array.from({ length: head.latest }, (_, index) => index + 1);
    const kept = await Promise.all(numbers.map((number) => versionOf(type, number)));
    const { description, deprecated } = head;
    return {
      definition: { type, description, deprecated, versions: kept.map((k) => k.version) },
      builtIn: false,
    };
  };

  return {
    async resolve(type, version) {
      if (isNoticeKind(type)) return { kind: 'reserved', type };
      const shipped = builtIn(type);
      if (shipped !== undefined) {
        const number = version ?? shipped.latest;
        const found = shipped.versions.get(number);
        if (found === undefined)
          return { kind: 'unknown-version', type, version: number, latest: shipped.latest };
        return {
          kind: 'found',
          type,
          version: number,
          latest: shipped.latest,
          deprecated: shipped.definition.deprecated || found.version.deprecated,
          check: (payload) => checkPayload(found.schema, number, payload),
        };
      }
      let head = await headOf(type);
      // A version above the head this container trusts may have been registered since: look again.
      if (head !== undefined && version !== undefined && version > head.latest)
        head = await headOf(type, true);
      if (head === undefined) return { kind: 'unknown-type', type, known: await known() };
      const number = version ?? head.latest;
      if (!Number.isInteger(number) || number < 1 || number > head.latest) {
        return { kind: 'unknown-version', type, version: number, latest: head.latest };
      }
      const kept = await versionOf(type, number);
      kept.compiled ??= compileSchema(kept.version.schema);
      const compiled = kept.compiled;
      return {
        kind: 'found',
        type,
        version: number,
        latest: head.latest,
        deprecated: head.deprecated || kept.version.deprecated,
        check: (payload) => checkPayload(compiled, number, payload),
      };
    },
    get,
    names: known,
    async *list(after) {
      for (const name of [...new Set([...(await known()), ...NOTICE_KINDS])].sort()) {
        if (after !== undefined && name <= after) continue;
        const entry = await get(name);
        if (entry !== undefined) yield entry;
      }
    },
  };
}
