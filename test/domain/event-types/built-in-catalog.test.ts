/**
 * The built-in catalog as publishing resolves types: every version compiled once, when the catalog is
 * made, and an unknown name answered with the names there are.
 */
import { describe, expect, it } from 'vitest';
import { builtInCatalog } from '#domain/event-types/built-in-catalog';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { latestVersion } from '#domain/event-types/model';
import { validatePayload } from '#domain/event-types/payload-validation';

describe('builtInCatalog', () => {
  const catalog = builtInCatalog();

  it.each(BUILT_IN_EVENT_TYPES.map((definition) => [definition.type, definition]))(
    'resolves %s with every version compiled, the same compiled type each time',
    async (type, definition) => {
      const first = await catalog.resolve(type);
      if (!first.known) throw new Error(`${type} unknown`);
      expect(first.type.definition).toBe(definition);
      expect([...first.type.versions.keys()]).toEqual(definition.versions.map((v) => v.version));
      expect(first.type.latest).toBe(latestVersion(definition).version);
      // Compiled when the catalog was made: resolving compiles nothing again.
      const second = await catalog.resolve(type);
      expect(second.known && second.type).toBe(first.type);
      const example = latestVersion(definition).examples[0]?.payload;
      expect(validatePayload(first.type, undefined, example)).toEqual({
        ok: true,
        version: first.type.latest,
      });
    },
  );

  it('answers an unknown name with every type name, sorted', async () => {
    expect(await catalog.resolve('order.paid')).toEqual({
      known: false,
      types: BUILT_IN_EVENT_TYPES.map((definition) => definition.type).sort(),
    });
  });
});
