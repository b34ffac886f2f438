/**
 * The platform team's notices topic in the template: encrypted and TLS-only, the alarm e-mail subscribed
 * when configured, the summary scheduled every minute, and sns:Publish on that topic for the summary
 * function alone (cdk-nag's findings are checked for the whole stack in compliance.test.ts).
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionKey } from '#config/functions';
import { actionsOf, type CfnJson, synth } from './fixture';

const byDefault = synth();
const configured = synth({ alarmEmail: 'oncall@example.com', encryption: { kind: 'customer-managed' } });
const KEYS = Object.keys(FUNCTIONS) as FunctionKey[];

function noticeTopicId(synthesized: typeof byDefault): string {
  return synthesized.logicalId(synthesized.stack.node.findChild('Notices').node.findChild('Topic'));
}

/** The statements of a function that name any SNS action. */
function snsStatements(synthesized: typeof byDefault, key: FunctionKey) {
  return synthesized.statements(key).filter((s) => actionsOf(s).some((action) => action.startsWith('sns:')));
}

describe('notices topic', () => {
  it('is encrypted with SNS’s AWS-managed key by default, with the customer key when there is one', () => {
    byDefault.template.hasResourceProperties('AWS::SNS::Topic', {
      DisplayName: 'Herald operational notices',
      KmsMasterKeyId: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(':alias/aws/sns$')])] },
    });
    const keyId = configured.logicalId(configured.stack.encryptionKey);
    configured.template.hasResourceProperties('AWS::SNS::Topic', {
      DisplayName: 'Herald operational notices',
      KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
    });
  });

  it('accepts publishes over TLS only', () => {
    byDefault.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: noticeTopicId(byDefault) }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('has the alarm e-mail subscribed when it is configured, and no subscription otherwise', () => {
    byDefault.template.resourceCountIs('AWS::SNS::Subscription', 0);
    configured.template.hasResourceProperties('AWS::SNS::Subscription', {
      TopicArn: { Ref: noticeTopicId(configured) },
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
    });
  });

  it('runs the summary every minute', () => {
    const summary = byDefault.logicalId(byDefault.stack.functions.noticeSummary);
    byDefault.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [summary, 'Arn'] } })],
    });
    byDefault.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [summary, 'Arn'] },
      Principal: 'events.amazonaws.com',
    });
  });

  it('may be published to by the summary alone, which may do nothing else with SNS', () => {
    for (const synthesized of [byDefault, configured]) {
      const topic = noticeTopicId(synthesized);
      expect(KEYS.filter((key) => snsStatements(synthesized, key).length > 0)).toEqual(['noticeSummary']);
      expect(snsStatements(synthesized, 'noticeSummary')).toEqual([
        { Effect: 'Allow', Action: 'sns:Publish', Resource: { Ref: topic } },
      ]);
      expect(KEYS.filter((key) => synthesized.env(key).NOTICE_TOPIC_ARN !== undefined)).toEqual([
        'noticeSummary',
      ]);
      expect(synthesized.env('noticeSummary').NOTICE_TOPIC_ARN).toEqual({ Ref: topic });
    }
  });

  it('gives the summary the customer key for publishing, through SNS only', () => {
    const keyId = configured.logicalId(configured.stack.encryptionKey);
    const kms = configured
      .statements('noticeSummary')
      .filter((s) => JSON.stringify(s.Condition ?? {}).includes('sns.'));
    expect(kms).toEqual([
      {
        Effect: 'Allow',
        Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
        Resource: { 'Fn::GetAtt': [keyId, 'Arn'] },
        Condition: {
          StringEquals: {
            'kms:ViaService': { 'Fn::Join': ['', ['sns.', { Ref: 'AWS::Region' }, '.amazonaws.com']] },
          },
        },
      },
    ]);
  });

  it('is an output, for further subscriptions', () => {
    const outputs = byDefault.template.toJSON().Outputs as Record<string, CfnJson['Properties']>;
    expect(outputs.NoticeTopicArn?.Value).toEqual({ Ref: noticeTopicId(byDefault) });
  });
});
