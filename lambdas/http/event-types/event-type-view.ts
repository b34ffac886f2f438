/**
 * The catalog as the API shows it: a type with every version, its schema and examples; and a listing of
 * types, as many as one answer carries, with the `Link: next` that goes on after the last one.
 */

import type { CatalogEntry } from '#domain/event-types/model';
import { joinUrl } from '#domain/urls';
import { arrayBudget } from '#http/answer-size';
import type { EVENT_TYPE_ENTRY } from '#http/openapi/event-types';
import type { Static } from '#http/schema';

/** A type as the API shows it. */
export type EventTypeView = Static<typeof EVENT_TYPE_ENTRY>;

/** A type of the catalog as shown. */
export function toEventTypeView({ definition, builtIn, operational }: CatalogEntry): EventTypeView {
  return {
    type: definition.type,
    description: definition.description,
    built_in: builtIn,
    operational: operational ?? false,
    deprecated: definition.deprecated,
    latest_version: definition.versions.at(-1)?.version ?? 0,
    versions: definition.versions.map((version) => ({
      version: version.version,
      deprecated: version.deprecated,
      schema: version.schema,
      examples: version.examples.map(({ name, summary, payload }) => ({ name, summary, payload })),
    })),
  };
}

/** A listing's answer: its types and, when more follow, its `Link` header. */
export interface EventTypeListAnswer {
  readonly types: EventTypeView[];
  readonly link?: string;
}

/**
 * The types `entries` gives, in order, as many as one answer carries (a type is read only when it is
 * taken), and a `Link: next` after the last one when another was left out. The first always fits: a
 * type at its limits (every version with the largest schema and examples) carries under 5 MB.
 *
 * @param path - the listing's path (`/event-types`, `/admin/event-types`), which the link repeats
 */
export async function toEventTypeListAnswer(
  entries: AsyncIterable<CatalogEntry>,
  baseUrl: string,
  path: string,
): Promise<EventTypeListAnswer> {
  const fits = arrayBudget();
  const types: EventTypeView[] = [];
  for await (const entry of entries) {
    const view = toEventTypeView(entry);
    const last = types.at(-1);
    if (!fits(view) && last !== undefined) {
      const next = `${joinUrl(baseUrl, path)}?${new URLSearchParams({ after: last.type })}`;
      return { types, link: `<${next}>; rel="next"` };
    }
    types.push(view);
  }
  return { types };
}
