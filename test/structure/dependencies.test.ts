import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkSource,
  checkTree,
  importSpecifiers,
  PROJECT_ROOT,
  readAliases,
  readsProcessEnv,
  resolveSpecifier,
  sourceFiles,
} from './import-rules';

const FOLDERS = ['bin', 'lib', 'lambdas', 'scripts'];
const aliases = readAliases(PROJECT_ROOT);

describe('the dependency rule', () => {
  it('holds for every source file under bin/, lib/, lambdas/ and scripts/', () => {
    const found = checkTree(PROJECT_ROOT, FOLDERS).map(
      (v) => `${v.file} imports '${v.specifier}': ${v.rule}`,
    );
    expect(found).toEqual([]);
  });

  it('reads the whole tree and resolves every import to a file that exists', () => {
    const files = sourceFiles(PROJECT_ROOT, FOLDERS);
    expect(files).toContain('lambdas/domain/ports.ts');
    expect(files).toContain('scripts/local/stream-link.ts');
    expect(files.length).toBeGreaterThan(100);
    // A typo in an alias or a stale relative path would otherwise make a rule silently miss the import.
    expect(unresolvedImports(files)).toEqual([]);
  });
});

describe('the folder notes', () => {
  const folders = ['lambdas', ...lambdaFolders()];

  it('reads every folder under lambdas/', () => {
    expect(folders).toContain('lambdas/delivery');
    expect(folders).toContain('lambdas/http/openapi');
  });

  it.each(folders)('%s has a README.md saying what lives there and what it may import', (folder) => {
    const readme = join(PROJECT_ROOT, folder, 'README.md');
    expect(existsSync(readme), `${folder}/README.md`).toBe(true);
    const text = readFileSync(readme, 'utf8');
    expect(text.startsWith(`# ${folder}\n`), 'its title is the folder').toBe(true);
    expect(text).toMatch(/may import/i);
  });

  it('are not hidden in the first line of a source file', () => {
    const hidden = sourceFiles(PROJECT_ROOT, ['lambdas']).filter((file) =>
      readFileSync(join(PROJECT_ROOT, file), 'utf8').startsWith('// lambdas/'),
    );
    expect(hidden).toEqual([]);
  });
});

describe('the checker', () => {
  it('catches an import that points the wrong way, naming the file and the specifier', () => {
    const planted = [
      "import { thing } from '#lib/herald-stack';",
      "import type { Other } from '../../scripts/local/runtime';",
      "export * from '#handlers/get-event';",
      "const lazy = await import('#cli/target');",
    ].join('\n');
    const violations = checkSource('lambdas/use-cases/planted.ts', planted, aliases);
    expect(violations.map((v) => v.specifier)).toEqual([
      '#lib/herald-stack',
      '../../scripts/local/runtime',
      '#handlers/get-event',
      '#cli/target',
    ]);
    expect(violations.every((v) => v.file === 'lambdas/use-cases/planted.ts')).toBe(true);
  });

  it.each([
    ['lambdas/domain/x.ts', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';"],
    ['lambdas/domain/x.ts', "import { request } from 'node:https';"],
    ['lambdas/domain/x.ts', "import { json } from '#http/response';"],
    ['lambdas/domain/x.ts', "import { loadEnv } from '#config/env';"],
    ['lambdas/domain/x.ts', 'export const table = process.env.TABLE_NAME;'],
    ['lambdas/use-cases/x.ts', "import { toEventSummary } from '#http/events/event-view';"],
    ['lambdas/use-cases/x.ts', "import { DynamoEventStore } from '../adapters/dynamodb/event-store';"],
    ['lambdas/adapters/sqs/x.ts', "import { recordEvent } from '#use-cases/events/record-event';"],
    ['lambdas/http/x.ts', "import { logger } from '#adapters/observability';"],
    ['lambdas/http/events/x.ts', "import { getEvent } from '#use-cases/events/read-events';"],
    ['lambdas/http/x.ts', "import type { EnableResult } from '../use-cases/accounts/enable-endpoint';"],
    ['lambdas/config/x.ts', "import { MAX_ATTEMPTS } from '#domain/model';"],
    ['lambdas/delivery/order-rule.ts', "import { passGate } from './order';"],
    ['lambdas/delivery/x-rule.ts', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';"],
    ['lambdas/delivery/x-port.ts', 'export const queue = process.env.QUEUE_URL;'],
    ['lambdas/delivery/x.ts', "import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';"],
    ['lambdas/delivery/x.ts', "import { getEvent } from '#use-cases/events/read-events';"],
    ['lambdas/domain/x.ts', "import { passGate } from '#delivery/order';"],
    ['lambdas/use-cases/x.ts', "import { deliverEvent } from '#delivery/deliver-event';"],
    ['lambdas/adapters/sqs/x.ts', "import { deliverBatch } from '#delivery/deliver-batch';"],
    ['lambdas/http/x.ts', "import { admitSlot } from '#delivery/endpoint-health';"],
    ['lib/x.ts', "import { startRuntime } from '#local/runtime';"],
    ['lib/x.ts', "import { x } from '../test/support/wait';"],
    ['scripts/local/x.ts', "import { resolveTarget } from '#cli/target';"],
  ])('refuses %s: %s', (file, source) => {
    expect(checkSource(file, source, aliases)).toHaveLength(1);
  });

  it.each([
    ['lambdas/domain/x.ts', "import { MAX_ATTEMPTS } from '#config/delivery';"],
    ['lambdas/domain/x.ts', "import { createHmac } from 'node:crypto';"],
    ['lambdas/domain/x.ts', '// process.env is read in config/env.ts\nconst s = "process.env";'],
    ['lambdas/use-cases/x.ts', "import type { DeliveryLedger } from '#domain/ports';"],
    ['lambdas/handlers/x.ts', "import { DynamoEventStore } from '#adapters/dynamodb/events/event-store';"],
    ['lambdas/handlers/x.ts', "import { getEvent } from '#use-cases/events/read-events';"],
    ['lambdas/http/openapi/x.ts', "import { MAX_OVERLAP_HOURS } from '#domain/signing/webhook-token';"],
    ['lib/x.ts', "import { API_ROUTES } from '#config/routes';"],
    ['scripts/cli/x.ts', "import { LOCAL_REGION } from '#local/emulators';"],
    ['lambdas/domain/x.ts', 'const text = "import { x } from \'#http/request\'";'],
    ['lambdas/domain/x.ts', "import type { EndpointHealth } from '#delivery/endpoint-health-port';"],
    ['lambdas/delivery/order.ts', "import { decideGate } from './order-rule';"],
    ['lambdas/delivery/x-rule.ts', "import { MAX_ATTEMPTS } from '#config/delivery';"],
    ['lambdas/adapters/sqs/x.ts', "import type { QueuePull } from '#delivery/held-invocation-port';"],
    ['lambdas/http/x.ts', "import { MAX_CYCLES } from '#delivery/retry-rule';"],
    ['lambdas/handlers/x.ts', "import { deliverBatch } from '#delivery/deliver-batch';"],
  ])('allows %s: %s', (file, source) => {
    expect(checkSource(file, source, aliases)).toEqual([]);
  });

  it('resolves aliases and relative paths to repository files', () => {
    expect(resolveSpecifier('lambdas/use-cases/a.ts', '#domain/ports', aliases)).toEqual({
      kind: 'file',
      path: 'lambdas/domain/ports.ts',
    });
    expect(resolveSpecifier('lambdas/use-cases/a.ts', '../../lib/shapes', aliases)).toEqual({
      kind: 'file',
      path: 'lib/shapes.ts',
    });
    expect(resolveSpecifier('lib/a.ts', 'aws-cdk-lib/aws-sqs', aliases)).toEqual({
      kind: 'package',
      name: 'aws-cdk-lib/aws-sqs',
    });
  });

  it('sees process.env in code only', () => {
    expect(readsProcessEnv('const a = process.env.X;')).toBe(true);
    expect(readsProcessEnv('const a = process . env;')).toBe(true);
    expect(readsProcessEnv('/* process.env */ const a = "process.env";')).toBe(false);
  });
});

/** Every folder under `lambdas/`, itself excluded, repo-relative. */
function lambdaFolders(): string[] {
  const folders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      folders.push(`${dir}/${entry.name}`);
      walk(`${dir}/${entry.name}`);
    }
  };
  walk('lambdas');
  return folders.sort();
}

function unresolvedImports(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    importSpecifiers(readFileSync(join(PROJECT_ROOT, file), 'utf8'))
      .filter((specifier) => {
        const target = resolveSpecifier(file, specifier, aliases);
        return target.kind === 'file'
          ? !existsSync(join(PROJECT_ROOT, target.path))
          : target.name.startsWith('#');
      })
      .map((specifier) => `${file}: ${specifier}`),
  );
}
