/**
 * The local runtime's state is owner-only: `.herald/` and its data directory are created 0700 with 0600
 * files whatever the umask, and tightened when they already exist with wider permissions.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_INFO_PATH, writeLocalInfo } from '#local/local-info';
import { ensurePrivateDir, ensurePrivateTree, writePrivateFile } from '#local/private-files';

const scratch = mkdtempSync(join(tmpdir(), 'herald-private-'));
let dir: string;
let umask: number;

beforeEach(() => {
  dir = mkdtempSync(join(scratch, 'case-'));
  // The most permissive umask: whatever is owner-only below is so because the code made it so.
  umask = process.umask(0);
});

afterEach(() => {
  process.umask(umask);
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const modeOf = (path: string): number => statSync(path).mode & 0o777;

const LOCAL_INFO = {
  baseUrl: 'http://127.0.0.1:3000',
  tableName: 'herald-local-events',
  queueUrl: 'http://127.0.0.1:1/queue',
  dlqUrl: 'http://127.0.0.1:1/dlq',
  endpoints: { dynamodb: 'http://127.0.0.1:1', sqs: 'http://127.0.0.1:2' },
  credentials: { accessKeyId: 'AKIALOCAL', secretAccessKey: 'secret' },
};

describe('owner-only local state', () => {
  it('creates directories 0700, parents included', () => {
    const nested = join(dir, '.herald', 'data', 'dynamodb');
    ensurePrivateDir(nested);
    expect(modeOf(join(dir, '.herald'))).toBe(0o700);
    expect(modeOf(join(dir, '.herald', 'data'))).toBe(0o700);
    expect(modeOf(nested)).toBe(0o700);
  });

  it('writes files 0600, also over a file that was world-readable', () => {
    const file = join(dir, 'demo.json');
    writeFileSync(file, 'old', { mode: 0o644 });
    writePrivateFile(file, 'new');
    expect(modeOf(file)).toBe(0o600);
    writePrivateFile(join(dir, 'fresh.json'), '{}');
    expect(modeOf(join(dir, 'fresh.json'))).toBe(0o600);
  });

  it('tightens an existing tree: no group or other bit left, owner bits kept, links not followed', () => {
    const state = join(dir, '.herald');
    mkdirSync(join(state, 'data', 'sqs'), { recursive: true, mode: 0o755 });
    writeFileSync(join(state, 'data', 'sqs', 'fauxqs.db'), '', { mode: 0o664 });
    writeFileSync(join(state, 'data', 'run.sh'), '', { mode: 0o755 });
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, '', { mode: 0o644 });
    symlinkSync(outside, join(state, 'data', 'link'));
    chmodSync(state, 0o777);

    ensurePrivateTree(state);
    expect(modeOf(state)).toBe(0o700);
    expect(modeOf(join(state, 'data'))).toBe(0o700);
    expect(modeOf(join(state, 'data', 'sqs'))).toBe(0o700);
    expect(modeOf(join(state, 'data', 'sqs', 'fauxqs.db'))).toBe(0o600);
    expect(modeOf(join(state, 'data', 'run.sh'))).toBe(0o700);
    expect(modeOf(outside)).toBe(0o644);
  });

  it('writes .herald/local.json (the operator key) owner-only over a wider directory and file', () => {
    mkdirSync(join(dir, '.herald'), { mode: 0o755 });
    writeFileSync(join(dir, LOCAL_INFO_PATH), '{}', { mode: 0o644 });
    writeLocalInfo(dir, LOCAL_INFO);
    expect(modeOf(join(dir, '.herald'))).toBe(0o700);
    expect(modeOf(join(dir, LOCAL_INFO_PATH))).toBe(0o600);
  });
});
