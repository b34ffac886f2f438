/**
 * `herald publish --file` end to end: a 5,000-line file published through the local runtime's
 * `POST /events/batch`, its progress shown, the run killed midway and resumed from its progress file:
 * every line stored once, in the file's order, and the refused lines of another file named by number (one
 * too large for any request, one whose own `id` is no string, one its type's schema refuses, one of a type
 * outside the catalog), its large lines (of an operator's type) sent within the byte limit.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISH_BATCH_MAX_BYTES } from '#config/limits';
import { type CliFixture, type CreatedOrg, ok, startCliFixture } from '../support/cli-fixture';
import { testIban } from '../support/delivery-queue-helpers';
import type { ApiClient } from '../support/e2e-http';
import { DEBIT, debitPayload } from '../support/payloads';
import { useFixture } from '../support/use-fixture';
import { waitFor } from '../support/wait';

let api: ApiClient;
let herald: CliFixture['herald'];
let spawnHerald: CliFixture['spawnHerald'];
let workDir: string;
let org: CreatedOrg;

useFixture(
  () => startCliFixture(),
  (fixture) => {
    ({ api, herald, spawnHerald, workDir, org } = fixture);
  },
);

const LINES = 5_000;

/** Every event of the account's feed, following `Link: next`. */
async function feedOf(
  iban: string,
): Promise<{ id: string; sequence: number; payload: { collection_id: string } }[]> {
  const events: { id: string; sequence: number; payload: { collection_id: string } }[] = [];
  let after = 0;
  for (;;) {
    const answer = await api.call(`/accounts/${iban}/events?after_sequence=${after}&limit=100`, {
      key: org.api_key,
    });
    expect(answer.status, answer.text).toBe(200);
    events.push(...(answer.body as typeof events));
    const next = /after_sequence=(\d+)[^>]*>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
    if (next === undefined) return events;
    after = Number(next);
  }
}

describe('publish --file', () => {
  it('publishes a 5,000-line file with progress, and resumes after being killed, storing every line once in order', {
    // Alone it takes about half a minute; beside the rest of the suite on two cores, DynamoDB Local serves
    // every file at once and a 100-event batch may take seconds.
    timeout: 1_200_000,
  }, async () => {
    const iban = testIban();
    ok(await herald(['account', 'put', '--org', org.id, '--iban', iban]));
    const file = join(workDir, 'collection.ndjson');
    // A direct-debit status report: one collected debit a line.
    const lines = Array.from({ length: LINES }, (_, line) =>
      JSON.stringify({
        account: iban,
        type: DEBIT,
        payload: debitPayload({ collection_id: `dd_${line + 1}` }),
      }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    const progress = `${file}.herald-progress`;

    // Killed once a few batches are recorded: the ids of every line were written before any was sent.
    const first = spawnHerald(['publish', '--file', file]);
    let firstErr = '';
    first.stderr?.on('data', (chunk: Buffer) => {
      firstErr += chunk.toString();
    });
    const exited = new Promise((done) => first.on('exit', done));
    await waitFor(() => existsSync(progress) && readFileSync(progress, 'utf8').split('\n').length > 5, {
      timeoutMs: 300_000,
      what: 'a few batches recorded',
    });
    first.kill('SIGKILL');
    await exited;
    const header = JSON.parse(readFileSync(progress, 'utf8').split('\n')[0] ?? '{}') as {
      ids: Record<string, string>;
    };
    expect(Object.keys(header.ids)).toHaveLength(LINES);
    expect(firstErr).toMatch(/herald publish: \d+\/5000 lines: \d+ stored, 0 duplicate, 0 refused/);

    const resumed = await herald(['publish', '--file', file], workDir, 900_000);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout) as {
      lines: number;
      stored: number;
      duplicate: number;
      refused: unknown[];
      unsent: unknown[];
    };
    expect(summary).toMatchObject({ lines: LINES, refused: [], unsent: [] });
    // Lines stored by the killed run but not recorded before the kill come back as duplicates.
    expect(summary.stored + summary.duplicate).toBe(LINES);
    expect(summary.stored).toBeGreaterThan(0);
    expect(resumed.stderr).toMatch(/herald publish: 5000\/5000 lines/);

    const feed = await feedOf(iban);
    // Gap-free: the one exception is a resent line that met its killed batch still being stored on the
    // server, whose sequence was given back (closed); so the feed may pass a few closed sequences.
    const sequences = feed.map((event) => event.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect((sequences.at(-1) ?? 0) - LINES).toBeLessThanOrEqual(100);
    // In the file's order, each line once, under the id written for it before it was sent.
    expect(feed.map((event) => event.payload.collection_id)).toEqual(
      Array.from({ length: LINES }, (_, i) => `dd_${i + 1}`),
    );
    expect(feed.map((event) => event.id)).toEqual(
      Array.from({ length: LINES }, (_, i) => header.ids[String(i + 1)]),
    );

    // Done: a third run sends nothing and says the same.
    const again = await herald(['publish', '--file', file], workDir, 60_000);
    expect(JSON.parse(again.stdout)).toMatchObject({
      lines: LINES,
      stored: summary.stored,
      duplicate: summary.duplicate,
    });
  });

  it('names the refused lines of a file by number and problem, stores the others, and exits 1', async () => {
    const iban = testIban();
    ok(await herald(['account', 'put', '--org', org.id, '--iban', iban]));
    // Lines of up to 64 KiB: a type of the operator's whose payload carries a text (no built-in one does).
    const declaration = join(workDir, 'file-line.json');
    writeFileSync(
      declaration,
      JSON.stringify({
        description: 'A line of a test file.',
        schema: {
          type: 'object',
          properties: { n: { type: 'integer' }, text: { type: 'string' } },
          required: ['n'],
          additionalProperties: false,
        },
        examples: [{ name: 'line', summary: 'A line.', payload: { n: 1, text: 'x' } }],
      }),
    );
    ok(await herald(['event-type', 'put', '--type', 'acme.file_line', '--file', declaration]));
    const file = join(workDir, 'mixed.ndjson');
    const good = (n: number) =>
      JSON.stringify({ account: iban, type: DEBIT, payload: debitPayload({ collection_id: `dd_${n}` }) });
    const line = (n: number, text: string) =>
      JSON.stringify({ account: iban, type: 'acme.file_line', payload: { n, text } });
    // Together over the batch's 1 MiB: sent in more than one request.
    const large = Array.from({ length: 25 }, (_, i) => line(3 + i, 'x'.repeat(50_000)));
    const { amount: _, ...withoutAmount } = debitPayload();
    writeFileSync(
      file,
      [
        good(1),
        '{not json',
        '',
        JSON.stringify({ account: iban, type: 'Bad Type', payload: debitPayload() }),
        good(2),
        JSON.stringify({ id: 123, account: iban, type: DEBIT, payload: debitPayload() }),
        line(0, 'x'.repeat(PUBLISH_BATCH_MAX_BYTES)),
        JSON.stringify({ account: iban, type: DEBIT, payload: { ...withoutAmount, currency: 'euro' } }),
        JSON.stringify({ account: iban, type: 'order.paid', payload: debitPayload() }),
        ...large,
      ].join('\n'),
    );
    const run = await herald(['publish', '--file', file]);
    expect(run.code, run.stderr).toBe(1);
    const summary = JSON.parse(run.stdout) as {
      lines: number;
      stored: number;
      refused: { line: number; status: number; problem: string }[];
    };
    expect(summary).toMatchObject({ lines: 33, stored: 27 });
    expect(summary.refused.map((refused) => [refused.line, refused.status])).toEqual([
      [2, 400],
      [4, 400],
      [6, 400],
      [7, 400],
      [8, 400],
      [9, 422],
    ]);
    expect(summary.refused.map((refused) => refused.problem)).toEqual([
      'line 2: not a JSON object',
      expect.stringMatching(/^events\[\d+\]\.type: /),
      expect.stringMatching(/^events\[\d+\]\.id: /),
      expect.stringMatching(/^line 7: has \d+ bytes as JSON, over /),
      expect.any(String),
      expect.stringMatching(
        /^events\[\d+\]\.type: order\.paid is not an event type of the catalog; the known types are acme\.file_line, credit_received, /,
      ),
    ]);
    // Each violation of the payload's schema, by its pointer.
    expect(
      summary.refused[4]?.problem
        .split('; ')
        .map((field) => field.replace(/: .*/, '').replace(/^events\[\d+\]\./, ''))
        .sort(),
    ).toEqual(['payload/amount', 'payload/currency']);
  });
});
