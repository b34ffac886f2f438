/**
 * `npm run lint:openapi`: Redocly's recommended rules (`redocly lint` with no configuration) on the
 * document `GET /openapi.json` serves, taken from the `get-openapi` handler itself. Fails on any error or
 * warning, which `redocly lint` alone lets pass.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

// What a deployed stage serves (the handler reads it at module scope, so it is set before the import).
process.env.PUBLIC_BASE_URL ??= 'https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/v1';
const { handler } = await import('#handlers/get-openapi');

const request = {
  httpMethod: 'GET',
  path: '/openapi.json',
  resource: '/openapi.json',
  headers: {},
  requestContext: { requestId: 'lint' },
} as unknown as APIGatewayProxyEvent;
const context = { functionName: 'get-openapi', awsRequestId: 'lint' } as Context;
const answer = (await handler(request, context)) as APIGatewayProxyResult;
if (answer.statusCode !== 200) throw new Error(`GET /openapi.json answered ${answer.statusCode}`);

const dir = mkdtempSync(join(tmpdir(), 'herald-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  writeFileSync(file, answer.body);
  const run = (format: string) =>
    spawnSync('redocly', ['lint', file, `--format=${format}`], { encoding: 'utf8', shell: false });
  const report = JSON.parse(run('json').stdout) as { totals: { errors: number; warnings: number } };
  const { errors, warnings } = report.totals;
  if (errors + warnings > 0) {
    process.stderr.write(run('stylish').stdout);
    console.error(`Redocly (recommended): ${errors} errors, ${warnings} warnings in the served document.`);
    process.exitCode = 1;
  } else {
    console.log('Redocly (recommended): the served OpenAPI document has no errors and no warnings.');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
