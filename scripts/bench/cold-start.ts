/**
 * Cold-start cost of each handler: bundle it exactly as the stack does (`lambdas/config/bundling.ts`), then time
 * `import()` of the bundle in fresh Node processes, next to "floor" bundles that only construct the SDK
 * clients a handler uses. Module init beyond the floor is what Herald's own code costs.
 */
import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ESBUILD_OPTIONS } from '#config/bundling';
import type { RequiredEnvName } from '#config/env';
import { FUNCTIONS } from '#config/functions';
import { ensurePrivateDir } from '#local/private-files';

const OUT = join('.herald', 'bench', 'bundles');
const RUNS = 7;
/**
 * Just enough configuration for every handler's cold-start checks to pass: a value for every required
 * variable (typed so, so a new one cannot leave a handler failing its start here).
 */
const ENV: Readonly<Record<RequiredEnvName, string>> & Readonly<Record<string, string>> = {
  TABLE_NAME: 'bench',
  QUEUE_URL: 'http://127.0.0.1:1/queue',
  NOTICE_TOPIC_ARN: 'arn:aws:sns:us-east-1:000000000000:bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
};

const FLOORS = {
  'floor-dynamodb':
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; export const c = new DynamoDBClient({});",
  'floor-dynamodb-sqs':
    "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; import { SQSClient } from '@aws-sdk/client-sqs'; export const c = [new DynamoDBClient({}), new SQSClient({})];",
  'floor-sqs': "import { SQSClient } from '@aws-sdk/client-sqs'; export const c = new SQSClient({});",
};

/** One bundle's size and median init time. */
export interface ColdStartRow {
  readonly name: string;
  readonly bytes: number;
  readonly medianInitMs: number;
}

async function bundle(name: string, entry: { path: string } | { contents: string }): Promise<string> {
  const outfile = join(OUT, `${name}.mjs`);
  await build({
    ...ESBUILD_OPTIONS,
    ...('path' in entry
      ? { entryPoints: [entry.path] }
      : { stdin: { contents: entry.contents, resolveDir: process.cwd(), loader: 'ts' } }),
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

function medianInitMs(file: string): number {
  const script = `const t=performance.now();await import(${JSON.stringify(`./${file}`)});console.log(performance.now()-t);`;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ...ENV },
      encoding: 'utf8',
    });
    times.push(Number(out.trim()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/** Bundles and times every handler and the floors. */
export async function measureColdStarts(): Promise<ColdStartRow[]> {
  ensurePrivateDir(OUT);
  writeFileSync(join(OUT, 'package.json'), '{"type":"module"}\n');
  const rows: ColdStartRow[] = [];
  const entries: [string, { path: string } | { contents: string }][] = [
    ...Object.entries(FLOORS).map(([name, contents]): [string, { contents: string }] => [name, { contents }]),
    ...Object.values(FUNCTIONS).map((name): [string, { path: string }] => [
      name,
      { path: join('lambdas', 'handlers', `${name}.ts`) },
    ]),
  ];
  for (const [name, entry] of entries) {
    const file = await bundle(name, entry);
    rows.push({ name, bytes: statSync(file).size, medianInitMs: medianInitMs(file) });
  }
  return rows;
}
