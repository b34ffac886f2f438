import { MAX_OPERATOR_EVENT_TYPES } from '#config/catalog-limits';
import type { EventTypeVersion } from '#domain/event-types/model';
import type { EventTypeHead, EventTypeStore, TypeChange, TypeCreation } from '#domain/ports';

/**
 * {@link EventTypeStore} in memory, with the DynamoDB adapter's conditions: a type is created with its
 * name in the catalog only while the catalog holds fewer than `MAX_OPERATOR_EVENT_TYPES`, and a change
 * applies only while the head is the one the writer read, its description and deprecation included
 * (each checked and applied with no `await` in between, as the adapter's transaction does). Versions are
 * copied in and out, as stored items are. `reads` counts the reads of each kind, for the catalog cache's tests.
 */
export class InMemoryEventTypeStore implements EventTypeStore {
  readonly heads = new Map<string, EventTypeHead>();
  readonly versions = new Map<string, EventTypeVersion>();
  readonly reads = { names: 0, heads: 0, versions: 0 };

  async typeNames(): Promise<readonly string[]> {
    this.reads.names += 1;
    return [...this.heads.keys()].sort();
  }

  async head(type: string): Promise<EventTypeHead | undefined> {
    this.reads.heads += 1;
    const head = this.heads.get(type);
    return head === undefined ? undefined : { ...head };
  }

  async version(type: string, version: number): Promise<EventTypeVersion | undefined> {
    this.reads.versions += 1;
    const stored = this.versions.get(`${type}#${version}`);
    return stored === undefined ? undefined : structuredClone(stored);
  }

  async createType(head: EventTypeHead, first: EventTypeVersion): Promise<TypeCreation> {
    // A step of I/O before the write, where the adapter's transaction goes to DynamoDB.
    await Promise.resolve();
    if (this.heads.has(head.type)) return 'exists';
    if (this.heads.size >= MAX_OPERATOR_EVENT_TYPES) return 'full';
    this.heads.set(head.type, { ...head });
    this.versions.set(`${head.type}#1`, structuredClone({ ...first, version: 1 }));
    return 'created';
  }

  async updateType(change: TypeChange): Promise<boolean> {
    await Promise.resolve();
    const { expected } = change;
    const { type } = expected;
    const head = this.heads.get(type);
    const same =
      head?.latest === expected.latest &&
      head.description === expected.description &&
      head.deprecated === expected.deprecated;
    if (!same) return false;
    const latest = change.added === undefined ? head.latest : head.latest + 1;
    if (change.added !== undefined) {
      this.versions.set(`${type}#${latest}`, structuredClone({ ...change.added, version: latest }));
    }
    this.heads.set(type, {
      ...head,
      description: change.description,
      deprecated: change.deprecated,
      latest,
    });
    return true;
  }
}
