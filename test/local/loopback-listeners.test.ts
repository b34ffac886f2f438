/**
 * Every listener of the local runtime binds 127.0.0.1 only: nothing it serves checks who calls
 * (the emulators take any credentials, the gateway accepts a local operator key), so none may be
 * reachable from the network. Checked against what the kernel reports, not what the programs say.
 * (`test/e2e/local-runtime-lifetime.test.ts` checks every socket of a whole `npm start` the same way.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createApiGateway } from '#local/api-gateway';
import { startDemoReceiver } from '#local/demo-receiver';
import { startDynamoDbLocal, startFauxqs } from '#local/emulators';
import {
  isLoopback,
  type Listener,
  listeners,
  listenersOf,
  listenersOn,
  offLoopback,
} from '../support/listeners';
import { echoHandlers, gateways } from '../support/local-gateway';
import { startReceiver } from '../support/receiver';
import { testEndpoints } from '../support/resources';

const stops: (() => Promise<void>)[] = [];

afterAll(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const portOf = (url: string): number => Number(new URL(url).port);

/** Asserts that something listens and that all of it is on loopback. */
function expectLoopbackOnly(found: readonly Listener[], what: string): void {
  expect(found.length, `${what} listens`).toBeGreaterThan(0);
  expect(offLoopback(found), what).toEqual([]);
}

describe('listeners of the local runtime', () => {
  it('reads the kernel table: a wildcard listener would be told apart from a loopback one', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('::ffff:7f00:1')).toBe(true);
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(isLoopback('::')).toBe(false);
    expect(listeners().length).toBeGreaterThan(0);
  });

  it("this run's emulators (DynamoDB Local, fauxqs) listen on loopback only", () => {
    const { dynamodb, sqs } = testEndpoints();
    expectLoopbackOnly(listenersOn(portOf(dynamodb)), 'DynamoDB Local');
    expectLoopbackOnly(listenersOn(portOf(sqs)), 'fauxqs');
  });

  it('a started emulator and every process under it holds no socket off loopback', async () => {
    const [dynamodb, sqs] = await Promise.all([startDynamoDbLocal(), startFauxqs()]);
    stops.push(dynamodb.stop, sqs.stop);
    expectLoopbackOnly(listenersOf(dynamodb.pid), 'DynamoDB Local and its watchdog');
    expectLoopbackOnly(listenersOf(sqs.pid), 'fauxqs and its watchdog');
  });

  it('the API gateway, the demo receiver and the test receiver listen on loopback only', async () => {
    const gateway = createApiGateway({ handlers: echoHandlers().handlers });
    gateways.push(gateway);
    const demo = await startDemoReceiver(
      async () => [],
      () => undefined,
    );
    stops.push(demo.close);
    const receiver = await startReceiver();
    stops.push(receiver.close);
    expectLoopbackOnly(listenersOn(portOf(await gateway.listen(0))), 'the API gateway');
    expectLoopbackOnly(listenersOn(portOf(demo.url)), 'the demo receiver');
    expectLoopbackOnly(listenersOn(receiver.port), 'the test receiver');
  });
});
