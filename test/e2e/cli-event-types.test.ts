/**
 * The operator CLI end to end, the event type catalog: `herald event-type list|show|put` run as a child
 * process against this file's local runtime (see `test/support/cli-fixture.ts`). A type registered from
 * a file and given a second version, deprecated without restating it, shown whole and listed in brief,
 * and read back through the API with the organization's key; a bad file or declaration reported without
 * a stack trace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_EVENT_TYPES } from '#domain/event-types/catalog';
import { NOTICE_KINDS } from '#domain/notices/notice';
import type { EventTypeView } from '#http/event-types/event-type-view';
import { type CliFixture, type CreatedOrg, failed, ok, startCliFixture } from '../support/cli-fixture';
import type { ApiClient } from '../support/e2e-http';
import { CARD_DECLARATION, CARD_V2, CARD_V2_EXAMPLES } from '../support/event-type-samples';
import { useFixture } from '../support/use-fixture';

let api: ApiClient;
let herald: CliFixture['herald'];
let org: CreatedOrg;
const files = mkdtempSync(join(tmpdir(), 'herald-event-types-'));
const CARD = 'acme.card_settled';

useFixture(
  () => startCliFixture(),
  (fixture) => {
    ({ api, herald, org } = fixture);
  },
);

afterAll(() => {
  rmSync(files, { recursive: true, force: true });
});

/** A file holding `content` (JSON unless a string is given). */
function file(name: string, content: unknown): string {
  const path = join(files, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('event-type', () => {
  it('list prints every type in brief, by name', async () => {
    const listed = ok(await herald(['event-type', 'list'])) as { type: string; built_in: boolean }[];
    expect(listed.map((type) => type.type)).toEqual(
      [...BUILT_IN_EVENT_TYPES.map((d) => d.type), ...NOTICE_KINDS].sort(),
    );
    expect(listed.find((type) => type.type === 'endpoint_failing')).toMatchObject({ operational: true });
    expect(listed.find((type) => type.type === 'credit_received')).toEqual({
      type: 'credit_received',
      built_in: true,
      operational: false,
      deprecated: false,
      latest_version: 1,
      description: expect.any(String),
    });
  });

  it('put registers a type from a file, a second file adds a version, --deprecated changes it in place', async () => {
    const first = ok(
      await herald(['event-type', 'put', '--type', CARD, '--file', file('v1.json', CARD_DECLARATION)]),
    );
    expect(first).toMatchObject({ type: CARD, latest_version: 1, deprecated: false });
    const v2 = file('v2.json', { schema: CARD_V2, examples: CARD_V2_EXAMPLES });
    expect(ok(await herald(['event-type', 'put', '--type', CARD, '--file', v2]))).toMatchObject({
      latest_version: 2,
    });
    const deprecated = ok(
      await herald(['event-type', 'put', '--type', CARD, '--deprecated', 'true']),
    ) as EventTypeView;
    expect(deprecated).toMatchObject({ deprecated: true, latest_version: 2 });

    const shown = ok(await herald(['event-type', 'show', '--type', CARD])) as EventTypeView;
    expect(shown).toEqual(deprecated);
    expect(shown.versions.map((version) => version.schema)).toEqual([CARD_DECLARATION.schema, CARD_V2]);
    // What the operator registered is what a receiver's organization reads.
    expect((await api.call(`/event-types/${CARD}`, { key: org.api_key })).body).toEqual(shown);
    const listed = ok(await herald(['event-type', 'list'])) as { type: string }[];
    expect(listed.map((type) => type.type)).toContain(CARD);
  });

  it('reports what is wrong: a declaration the API refuses, a bad file, missing flags', async () => {
    const broken = file('broken.json', {
      ...CARD_DECLARATION,
      schema: { type: 'object', properties: { a: { type: 'strung' } } },
    });
    expect(failed(await herald(['event-type', 'put', '--type', 'acme.broken', '--file', broken]), 1)).toMatch(
      /schema\/properties\/a\/type: /,
    );
    expect(
      failed(await herald(['event-type', 'put', '--type', 'credit_received', '--deprecated', 'true']), 1),
    ).toMatch(/built-in type/);
    expect(failed(await herald(['event-type', 'show', '--type', 'acme.nothing']), 1)).toMatch(
      /acme\.nothing is not an event type of the catalog; the known types are /,
    );
    const notJson = file('not.json', '{ "description": ');
    expect(failed(await herald(['event-type', 'put', '--type', CARD, '--file', notJson]), 2)).toMatch(
      /not JSON/,
    );
    expect(
      failed(await herald(['event-type', 'put', '--type', CARD, '--file', join(files, 'none.json')]), 2),
    ).toMatch(/cannot be read/);
    expect(failed(await herald(['event-type', 'put', '--type', CARD, '--deprecated', 'yes']), 2)).toMatch(
      /true or false/,
    );
    expect(failed(await herald(['event-type', 'put', '--type', CARD]), 2)).toMatch(/--file or --deprecated/);
    expect(failed(await herald(['event-type', 'show']), 2)).toMatch(/--type is required/);
  });
});
