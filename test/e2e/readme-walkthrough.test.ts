/**
 * The README works verbatim: its blocks marked `walk-through` (shell, then Python) run as written, in a
 * new shell, against `npm start`'s runtime started by this file in a directory of its own. The shell
 * blocks share one bash session (`set -euo pipefail`), as a user pasting them into one terminal would.
 * The `own-receiver` block runs last, in a session of its own: the demo account's next webhook reaches
 * the receiver it starts (on port 8080, which must be free).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferPayload } from '../support/payloads';
import {
  freshShellEnv,
  type StartedHerald,
  startHerald,
  taggedBlocks,
  walkThroughBlocks,
} from '../support/readme-walkthrough';
import { waitFor } from '../support/wait';

const blocks = walkThroughBlocks();
const shell = blocks.filter((block) => block.language === 'sh');
const python = blocks.filter((block) => block.language === 'python');
const [ownReceiver] = taggedBlocks('own-receiver');

let dir: string;
let herald: StartedHerald | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'herald-readme-'));
  herald = await startHerald(dir);
}, 240_000);
afterAll(async () => {
  await herald?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `script` in bash in the runtime's directory, with a new terminal's environment. */
function bash(script: string, input?: string) {
  return spawnSync('bash', ['-c', script], {
    cwd: dir,
    env: freshShellEnv(),
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('the README walk-through', () => {
  it('has shell and Python blocks to run', () => {
    expect(shell.length).toBeGreaterThanOrEqual(4);
    expect(python).toHaveLength(1);
    expect(shell[0]?.code.trim()).toBe('source .herald/env');
  });

  it('runs its shell blocks verbatim: the catalog, publish, a verified webhook, the event, problems, the operator CLI', async () => {
    const run = bash(['set -euo pipefail', ...shell.map((block) => block.code)].join('\n'));
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    // Every answer ends its line: none runs into the next command's output (an object, a list, the
    // OpenAPI paths, a status line), which a JSON document's end never meets otherwise.
    expect(run.stdout).not.toMatch(/\}(HTTP\/|\[|\{)|\](HTTP\/|\[|\{|\/)/);
    // The catalog, listed for the demo organization's key: every built-in type with its latest version.
    for (const type of ['credit_received', 'credit_transfer_status_change', 'direct_debit_status_change']) {
      expect(run.stdout).toMatch(new RegExp(`^${type} v1$`, 'm'));
    }
    const [id] = /"id":"([0-9a-f-]{36})","signature"/.exec(run.stdout)?.slice(1) ?? [];
    expect(id).toBeDefined();
    // The single view after the webhook went out, with its one attempt.
    expect(run.stdout).toMatch(
      /"webhook_status":"success","webhook_retries":1,"next_attempt_at":null,"webhook_deliveries":\[\{"delivery_at"/,
    );
    // Read once the runtime's output, held in the pipe while spawnSync blocked this process, has arrived.
    const line = `demo receiver: verified webhook ${id} (credit_transfer_status_change, both signatures)`;
    await waitFor(() => herald?.output().includes(line), { what: line });
    // The 4xx answer, with its problem+json body naming the parameter.
    expect(run.stdout).toMatch(
      /HTTP\/1\.1 400[\s\S]*content-type: application\/problem\+json[\s\S]*"name":"per_page"/i,
    );
    // The events published carry the version of their type; the refused one names each violation by its pointer.
    expect(run.stdout).toMatch(/"type":"credit_transfer_status_change","type_version":1,/);
    expect(run.stdout).toMatch(
      /HTTP\/1\.1 400[\s\S]*"detail":"payload does not pass credit_transfer_status_change version 1: \d+ problems at [^"]*"[\s\S]*"name":"payload\/amount"/i,
    );
    // The operator commands: an organization, and a portal link whose expiry is in the API's format.
    expect(run.stdout).toMatch(/"webhook_token": "whsec_/);
    expect(run.stdout).toMatch(/"expires_at": "\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"/);
  });

  it('runs its Python block verbatim: a 201, and a 400 with its problem body', (context) => {
    const env = freshShellEnv();
    const check = spawnSync('python3', ['-c', 'import botocore'], { env, encoding: 'utf8' });
    if (check.status !== 0) {
      context.skip(
        `python3 has no botocore here (${check.stderr.trim().split('\n').pop()}): Python block not run`,
      );
    }
    const run = bash('source .herald/env && python3 -', python[0]?.code);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const [created, refused] = run.stdout.trim().split('\n');
    expect(created).toMatch(/^\(201, \{'id': '[0-9a-f-]{36}'/);
    expect(refused).toMatch(/^\(400, \{.*'invalid_params': \[\{'name': 'type'/);
  });

  it('runs its own-receiver block verbatim: the account’s next webhook reaches that receiver', () => {
    // The demo receiver's URL first, to point the account back at it afterwards; then the block, a
    // publish, a wait for its delivery, and `kill %1` as the README says.
    const event = `'${JSON.stringify(transferPayload({ transfer_id: 'tr_own' }))}'`;
    const run = bash(
      [
        'set -euo pipefail',
        // However the session ends, the receiver it started ends with it.
        "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
        'source .herald/env',
        `demo=$(curl -s -H "Authorization: Bearer $HERALD_API_KEY" "$HERALD_URL/accounts/$HERALD_ACCOUNT" | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).webhook_url')`,
        ownReceiver?.code ?? 'false',
        `id=$(herald publish --account "$HERALD_ACCOUNT" --type credit_transfer_status_change --payload ${event} | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).id')`,
        'for _ in $(seq 150); do',
        `  [[ $(curl -s -H "Authorization: Bearer $HERALD_API_KEY" "$HERALD_URL/events/$id") == *'"webhook_status":"success"'* ]] && break`,
        '  sleep 0.2',
        'done',
        'kill %1',
        'herald account put --org "$HERALD_ORG_ID" --iban "$HERALD_ACCOUNT" --webhook-url "$demo" >/dev/null',
      ].join('\n'),
    );
    expect(ownReceiver?.language).toBe('sh');
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('"webhook_url": "http://127.0.0.1:8080/herald"');
    expect(run.stdout).toMatch(
      /^\{"id":"[0-9a-f-]{36}","type":"credit_transfer_status_change","type_version":1,.*"payload":\{"transfer_id":"tr_own",/m,
    );
  });

  it('needs nothing on the PATH that source .herald/env does not put there', () => {
    expect(
      execFileSync('bash', ['-c', 'command -v herald || echo none'], {
        env: freshShellEnv(),
        encoding: 'utf8',
      }).trim(),
    ).not.toMatch(/node_modules\/\.bin\/herald$/);
  });
});
