/**
 * The README works verbatim: its blocks marked `walk-through` (shell, then Python) run as written, in a
 * new shell, against `npm start`'s runtime started by this file in a directory of its own. The shell
 * blocks share one bash session (`set -euo pipefail`), as a user pasting them into one terminal would.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freshShellEnv,
  type StartedHerald,
  startHerald,
  walkThroughBlocks,
} from '../support/readme-walkthrough';
import { waitFor } from '../support/wait';

const blocks = walkThroughBlocks();
const shell = blocks.filter((block) => block.language === 'sh');
const python = blocks.filter((block) => block.language === 'python');

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

  it('runs its shell blocks verbatim: publish, a verified webhook, the event, a problem, the operator CLI', async () => {
    const run = bash(['set -euo pipefail', ...shell.map((block) => block.code)].join('\n'));
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
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

  it('needs nothing on the PATH that source .herald/env does not put there', () => {
    expect(
      execFileSync('bash', ['-c', 'command -v herald || echo none'], {
        env: freshShellEnv(),
        encoding: 'utf8',
      }).trim(),
    ).not.toMatch(/node_modules\/\.bin\/herald$/);
  });
});
