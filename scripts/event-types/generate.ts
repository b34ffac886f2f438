/**
 * `npm run docs:event-types`: writes `docs/event-types.md` from the catalog. A test renders it in memory
 * and fails when the committed page differs.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEventTypesDoc } from './render';

/** Where the generated page lives. */
export const EVENT_TYPES_DOC = fileURLToPath(new URL('../../docs/event-types.md', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(EVENT_TYPES_DOC, renderEventTypesDoc());
  console.log(`wrote ${EVENT_TYPES_DOC}`);
}
