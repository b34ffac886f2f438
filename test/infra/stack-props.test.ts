import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { stackPropsFromContext } from '../../lib/context-props';
import { HeraldStack } from '../../lib/herald-stack';
import type { HeraldStackProps } from '../../lib/herald-stack-props';
import { testApp } from './fixture';

const build = (props: HeraldStackProps) => () => new HeraldStack(testApp(), 'Herald', props);
const nineteen = Array<number>(19).fill(60);

describe('props are checked at synth', () => {
  it('retrySchedule: 19 whole, never decreasing waits of at most 12 h', () => {
    expect(build({ retrySchedule: nineteen })).not.toThrow();
    expect(build({ retrySchedule: nineteen.slice(1) })).toThrow(/expected 19/);
    expect(build({ retrySchedule: [...nineteen.slice(1), 30] })).toThrow(/shorter than delay 18/);
    expect(build({ retrySchedule: [...nineteen.slice(1), 43_201] })).toThrow(/exceeds 43200/);
    expect(build({ retrySchedule: [1.5, ...nineteen.slice(1)] })).toThrow(/not a whole number/);
  });

  it('eventRetentionDays: at least the 14 days a queued delivery may wait', () => {
    expect(build({ eventRetentionDays: 14 })).not.toThrow();
    expect(build({ eventRetentionDays: 13 })).toThrow(/eventRetentionDays must be a whole number from 14/);
    expect(build({ eventRetentionDays: 30.5 })).toThrow(/eventRetentionDays/);
  });

  it('consumerMaxConcurrency: 2 to 1000, as SQS event sources allow', () => {
    expect(build({ consumerMaxConcurrency: 2 })).not.toThrow();
    expect(build({ consumerMaxConcurrency: 1 })).toThrow(/consumerMaxConcurrency/);
    expect(build({ consumerMaxConcurrency: 1001 })).toThrow(/consumerMaxConcurrency/);
  });
});

describe('props from CDK context', () => {
  const fromContext = (context: Record<string, unknown>) => stackPropsFromContext(new App({ context }).node);

  it('defaults to a stack named Herald with every prop unset', () => {
    const props = fromContext({});
    expect(props.stackName).toBe('Herald');
    expect(
      Object.entries(props).filter(([key, value]) => key !== 'stackName' && value !== undefined),
    ).toEqual([]);
  });

  it('reads -c strings and cdk.json values alike', () => {
    const props = fromContext({
      'herald:stackName': 'HeraldStaging',
      'herald:retrySchedule': '1,2,3',
      'herald:eventRetentionDays': '30',
      'herald:consumerMaxConcurrency': 40,
      'herald:encryption': 'arn:aws:kms:eu-central-1:111122223333:key/abc',
      'herald:logRetentionDays': '365',
      'herald:apiRateLimit': '10',
      'herald:apiBurstLimit': '20',
      'herald:domainName': 'events.example.com',
      'herald:certificateArn': 'arn:aws:acm:eu-central-1:111122223333:certificate/abc',
      'herald:disableDefaultEndpoint': 'false',
      'herald:tableCapacity': '{"mode":"on-demand","maxWriteRequestUnits":1000}',
      'herald:tracing': 'true',
      'herald:corsAllowOrigins': ['https://a.example.com', 'https://b.example.com'],
      'herald:webhookUrlPolicy': 'allow-http',
      'herald:acceptUnknownEventTypes': 'true',
    });
    expect(props).toMatchObject({
      stackName: 'HeraldStaging',
      retrySchedule: [1, 2, 3],
      eventRetentionDays: 30,
      consumerMaxConcurrency: 40,
      encryption: { kind: 'customer-managed', keyArn: 'arn:aws:kms:eu-central-1:111122223333:key/abc' },
      logRetention: RetentionDays.ONE_YEAR,
      apiThrottle: { rateLimit: 10, burstLimit: 20 },
      customDomain: {
        domainName: 'events.example.com',
        hostedZone: undefined,
        disableDefaultEndpoint: false,
      },
      tableCapacity: { mode: 'on-demand', maxWriteRequestUnits: 1000 },
      tracing: true,
      corsAllowOrigins: ['https://a.example.com', 'https://b.example.com'],
      webhookUrlPolicy: 'allow-http',
      acceptUnknownEventTypes: true,
    });
    expect(fromContext({ 'herald:acceptUnknownEventTypes': false }).acceptUnknownEventTypes).toBe(false);
  });

  it('refuses values it cannot use', () => {
    expect(() => fromContext({ 'herald:webhookUrlPolicy': 'local' })).toThrow(
      /webhookUrlPolicy must be one of/,
    );
    expect(() => fromContext({ 'herald:logRetentionDays': '42' })).toThrow(/logRetentionDays/);
    expect(() => fromContext({ 'herald:encryption': 'mine' })).toThrow(/encryption/);
    expect(() => fromContext({ 'herald:apiRateLimit': '10' })).toThrow(/go together/);
    expect(() => fromContext({ 'herald:domainName': 'events.example.com' })).toThrow(/go together/);
    expect(() => fromContext({ 'herald:eventRetentionDays': 'forever' })).toThrow(/must be a number/);
    expect(() => fromContext({ 'herald:acceptUnknownEventTypes': 'yes' })).toThrow(
      /acceptUnknownEventTypes must be one of true, false/,
    );
  });
});
