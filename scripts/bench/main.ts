/**
 * `npm run bench`: the measurements behind the cost and speed claims (`docs/measurements/`), and the CLI's start
 * (`-- cli`). Starts its own emulators (in memory) and stops them. Numbers vary by machine; the capacity
 * units do not.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDocumentClient } from '#adapters/aws-clients';
import { applyLocalAwsEnv, startEmulators } from '#local/emulators';
import { provisionResources } from '#local/provision';
import { measureDeliveryCapacity } from './capacity';
import { measureCliStart } from './cli';
import { measureColdStarts } from './cold-start';
import { measureCrypto } from './crypto';
import { measureIsolation } from './isolation';
import { type BurstRow, measureBurstIsolation } from './isolation-burst';
import { measureLatency } from './latency';
import { measureListCapacity } from './list-capacity';
import { measurePortalRender } from './portal';
import { measurePublishApi } from './publish-api';
import { type ContentionCase, type ContentionRow, measurePublishContention } from './publish-contention';
import { printOneAccount } from './simulate/bench';
import { runSimulationBench } from './simulate/spawn';

const only = process.argv.slice(2);

/** A burst isolation row as a table line. */
const printBurstRow = (row: BurstRow) =>
  console.log(
    `| ${row.scenario} | ${row.p50Ms} | ${row.p95Ms} | ${row.ratio} | ${row.roundP50Ms.join(', ')} | ${row.backlogRequests.join(', ')} | ${row.seconds} |`,
  );
const wants = (name: string) => only.length === 0 || only.includes(name);

if (wants('cli')) {
  console.log('\n## CLI start: median wall time of fresh processes (the goal: within 100 ms of node -e 0)\n');
  console.log('| command | median (ms) |\n|---|---:|');
  const { rows, overFloorMs } = measureCliStart();
  for (const row of rows) console.log(`| ${row.name} | ${row.medianMs.toFixed(0)} |`);
  console.log(`\nThe bundled CLI starts ${overFloorMs.toFixed(0)} ms after a bare node.`);
}

if (wants('crypto')) {
  console.log('\n## Cryptography per attempt: CPU time per call (process.cpuUsage, warmed up)\n');
  console.log('| operation | CPU (µs) |\n|---|---:|');
  for (const row of await measureCrypto()) console.log(`| ${row.name} | ${row.microsPerCall.toFixed(0)} |`);
}

if (wants('cold-start')) {
  console.log('\n## Cold start: bundle size and median module init (7 fresh processes each)\n');
  console.log('| bundle | size (KB) | init (ms) |\n|---|---:|---:|');
  for (const row of await measureColdStarts()) {
    console.log(`| ${row.name} | ${(row.bytes / 1024).toFixed(0)} | ${row.medianInitMs.toFixed(1)} |`);
  }
}

// The simulation runs for minutes, in a process with the heap it needs.
const simulations = ['simulate', 'simulate-fan-out', 'simulate-agree'].filter(wants);
if (simulations.length > 0) runSimulationBench(simulations);

if (
  wants('capacity') ||
  wants('latency') ||
  wants('isolation') ||
  wants('isolation-burst') ||
  wants('isolation-endpoints') ||
  wants('isolation-burst-endpoints') ||
  wants('publish-api') ||
  wants('publish-contention') ||
  wants('portal')
) {
  const emulators = await startEmulators();
  try {
    applyLocalAwsEnv(emulators.endpoints);
    const client = createDocumentClient();
    if (wants('capacity')) {
      const resources = await provisionResources({
        prefix: `bench-${Date.now().toString(36)}`,
        sqsEndpoint: emulators.endpoints.sqs,
      });
      const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const perEvent = await measureDeliveryCapacity(client, resources.tableName, url, 5);
      receiver.close();
      console.log(
        '\n## Capacity units per event (publish; first-try delivery in batches of 10: one account, ten organizations), table only\n',
      );
      console.log(JSON.stringify(perEvent, null, 2));
      console.log('\n## GET /events read units with 10,000 events, per_page 100\n');
      console.log(JSON.stringify(await measureListCapacity(client, resources.tableName), null, 2));
    }
    if (wants('isolation')) {
      console.log(
        '\n## Isolation: a fast receiver while another account has 300 queued events to a bad one\n',
      );
      console.log('| other receiver | fast p50 (ms) | fast p95 (ms) | requests to the other | seconds |');
      console.log('|---|---:|---:|---:|---:|');
      await measureIsolation(emulators.endpoints, (row) =>
        console.log(
          `| ${row.scenario} | ${row.p50Ms} | ${row.p95Ms} | ${row.badRequests} | ${row.seconds} |`,
        ),
      );
      const resources = await provisionResources({
        prefix: `bench-wcu-${Date.now().toString(36)}`,
        sqsEndpoint: emulators.endpoints.sqs,
      });
      const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const { deliver } = await measureDeliveryCapacity(client, resources.tableName, url, 2);
      receiver.close();
      console.log(
        '\nCapacity units per healthy first-try delivery (health writes included):',
        JSON.stringify(deliver),
      );
    }
    if (wants('isolation-burst')) {
      console.log(
        '\n## Burst isolation: 60 fast events published right behind 300 events to another account, each round pooled\n',
      );
      console.log(
        '| backlog receiver | fast p50 (ms) | fast p95 (ms) | p50 / baseline | p50 per round (ms) | requests to the backlog per round | seconds |',
      );
      console.log('|---|---:|---:|---:|---|---|---:|');
      await measureBurstIsolation(emulators.endpoints, printBurstRow);
    }
    if (wants('isolation-endpoints')) {
      console.log(
        "\n## Isolation between one account's endpoints: its fast endpoint while its second endpoint has 300 queued events\n",
      );
      console.log(
        '| second endpoint | fast p50 (ms) | fast p95 (ms) | p50 / healthy neighbour | requests to the second | seconds |',
      );
      console.log('|---|---:|---:|---:|---:|---:|');
      let baseline: number | undefined;
      await measureIsolation(
        emulators.endpoints,
        (row) => {
          baseline ??= row.p50Ms;
          const ratio = Math.round((row.p50Ms / baseline) * 100) / 100;
          console.log(
            `| ${row.scenario} | ${row.p50Ms} | ${row.p95Ms} | ${ratio} | ${row.badRequests} | ${row.seconds} |`,
          );
        },
        'endpoint',
      );
    }
    if (wants('isolation-burst-endpoints')) {
      console.log(
        "\n## Burst isolation between one account's endpoints: 60 events right behind 300, ten accounts each with a fast endpoint and a second one, each round pooled\n",
      );
      console.log(
        '| second endpoint | fast p50 (ms) | fast p95 (ms) | p50 / healthy neighbour | p50 per round (ms) | requests to the second per round | seconds |',
      );
      console.log('|---|---:|---:|---:|---|---|---:|');
      await measureBurstIsolation(emulators.endpoints, printBurstRow, 'endpoint');
    }
    if (wants('latency')) {
      const result = await measureLatency(emulators.endpoints, 200, 1000);
      console.log('\n## Publish → receiver through the local runtime\n');
      console.log(JSON.stringify(result, null, 2));
    }
    if (wants('portal')) {
      console.log(
        '\n## Portal: navigation to the events list on screen (headless Chromium, local runtime)\n',
      );
      console.log(JSON.stringify(await measurePortalRender(emulators.endpoints), null, 2));
    }
    if (wants('publish-contention')) {
      const resources = await provisionResources({
        prefix: `bench-seq-${Date.now().toString(36)}`,
        sqsEndpoint: emulators.endpoints.sqs,
      });
      console.log(
        '\n## Concurrent publishes to one account (DynamoDB Local; busy answers resent after 200 ms, doubled, five sends)\n',
      );
      console.log(
        '| publishers | events | requests / event | read units / event | write units / event | busy | abandoned | ms | events/s | requests by operation | write units by item written |',
      );
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
      const cases: ContentionCase[] = [
        ...[1, 8, 32, 128].map((publishers) => ({ publishers, mode: 'single' as const })),
        { publishers: 128, mode: 'single', eventsEach: 10 },
        { publishers: 128, mode: 'warm' },
        { publishers: 128, mode: 'batch', batchSize: 10 },
      ];
      const label = (row: ContentionRow) =>
        row.mode === 'single'
          ? `${row.publishers} single${(row.eventsEach ?? 1) > 1 ? ` × ${row.eventsEach} each` : ''}, quiet log`
          : row.mode === 'warm'
            ? `${row.publishers} single, hot log`
            : `${row.publishers} batches of ${row.batchSize}`;
      await measurePublishContention(resources.tableName, cases, (row) =>
        console.log(
          `| ${label(row)} | ${row.stored} | ${row.totalRequestsPerEvent} | ${row.readUnitsPerEvent} | ${row.writeUnitsPerEvent} | ${row.busy} | ${row.abandoned} | ${row.wallMs} | ${row.publishesPerSecond} | ${JSON.stringify(row.requestsPerEvent)} | ${JSON.stringify(row.writeUnitsByKind)} |`,
        ),
      );
      await printOneAccount();
    }
    if (wants('publish-api')) {
      console.log('\n## Signed POST /events through the local runtime (sequential)\n');
      console.log(JSON.stringify(await measurePublishApi(emulators.endpoints, 200), null, 2));
    }
  } finally {
    await emulators.stop();
  }
}
