/**
 * `docs/event-types.md` is generated from the catalog: rendering it again in memory must give the committed
 * page, so the documentation cannot drift from the schemas Herald validates with.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { EVENT_TYPES_DOC } from '../../scripts/event-types/generate';
import { renderEventTypesDoc } from '../../scripts/event-types/render';

describe('docs/event-types.md', () => {
  const rendered = renderEventTypesDoc();

  it('is what `npm run docs:event-types` renders from the catalog (run it after changing a type)', () => {
    expect(readFileSync(EVENT_TYPES_DOC, 'utf8')).toBe(rendered);
  });

  it('shows every built-in type with each example and its full schema', () => {
    for (const definition of BUILT_IN_EVENT_TYPES) {
      expect(rendered).toContain(`## \`${definition.type}\`\n`);
      for (const version of definition.versions) {
        for (const example of version.examples)
          expect(rendered).toContain(`- \`${example.name}\`: ${example.summary}`);
        expect(rendered).toContain(JSON.stringify(version.schema, null, 2));
      }
    }
  });
});
