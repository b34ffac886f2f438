/**
 * Fixed source addresses (issue 18, stack prop `egress`): off by default (no VPC, no addresses, the
 * consumer in Lambda's own network); on, the webhook senders alone (the consumer, and the test event
 * sender of issue 31) run in private subnets behind one NAT gateway and Elastic IP per AZ, each in a
 * security group of its own, with endpoints for DynamoDB (gateway), SQS and KMS (interface), and the
 * stack outputs the addresses. cdk-nag with it: `test/infra/compliance.test.ts` (every option on).
 */
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionKey } from '#config/functions';
import { stackPropsFromContext } from '../../lib/context-props';
import { synth } from './fixture';

const KEYS = Object.keys(FUNCTIONS) as FunctionKey[];
const byDefault = synth();
const twoAzs = synth({
  egress: { staticIps: true, azs: 2 },
  env: { account: '111122223333', region: 'eu-central-1' },
});

const count = (s: ReturnType<typeof synth>, type: string) =>
  Object.keys(s.template.findResources(type)).length;

describe('static egress', () => {
  it('is off by default: no VPC, addresses or NAT gateways, no output, no function in a VPC', () => {
    for (const type of ['AWS::EC2::VPC', 'AWS::EC2::EIP', 'AWS::EC2::NatGateway', 'AWS::EC2::VPCEndpoint']) {
      expect(count(byDefault, type), type).toBe(0);
    }
    expect(byDefault.template.toJSON().Outputs.EgressIps).toBeUndefined();
    expect(KEYS.filter((key) => byDefault.fn(key).Properties.VpcConfig)).toEqual([]);
  });

  it('puts the webhook senders alone behind one NAT gateway and Elastic IP per AZ, and outputs the addresses', () => {
    const eips = twoAzs.template.findResources('AWS::EC2::EIP');
    expect(Object.keys(eips)).toHaveLength(2);
    for (const eip of Object.values(eips)) expect(eip.DeletionPolicy).toBe('Retain');
    const nats = Object.values(twoAzs.template.findResources('AWS::EC2::NatGateway'));
    expect(nats.map((nat) => nat.Properties.AllocationId['Fn::GetAtt'][0]).sort()).toEqual(
      Object.keys(eips).sort(),
    );
    const senders = ['consumer', 'sendTestEvent'];
    expect(KEYS.filter((key) => twoAzs.fn(key).Properties.VpcConfig).sort()).toEqual(senders.sort());
    const vpcOf = (key: FunctionKey) => twoAzs.fn(key).Properties.VpcConfig;
    const subnets = vpcOf('consumer').SubnetIds.map((s: { Ref: string }) => s.Ref);
    expect(subnets).toHaveLength(2);
    expect(subnets.every((id: string) => /consumerSubnet/i.test(id))).toBe(true);
    // The same subnets (so the same addresses); a security group each, both reaching any receiver.
    expect(vpcOf('sendTestEvent').SubnetIds).toEqual(vpcOf('consumer').SubnetIds);
    const groups = senders.map((key) => vpcOf(key as FunctionKey).SecurityGroupIds[0]['Fn::GetAtt'][0]);
    expect(new Set(groups).size).toBe(2);
    const resources = twoAzs.template.toJSON().Resources;
    for (const group of groups) {
      expect(resources[group].Properties.SecurityGroupEgress).toEqual([
        expect.objectContaining({ CidrIp: '0.0.0.0/0', IpProtocol: '-1' }),
      ]);
      expect(resources[group].Properties.SecurityGroupIngress).toBeUndefined();
    }
    expect(twoAzs.template.toJSON().Outputs.EgressIps.Value).toEqual({
      'Fn::Join': [',', Object.keys(eips).map((id) => ({ Ref: id }))],
    });
  });

  it('reaches DynamoDB, SQS and KMS through endpoints, not the NAT gateways, and logs rejected flows', () => {
    const endpoints = Object.values(twoAzs.template.findResources('AWS::EC2::VPCEndpoint'));
    const services = endpoints.map(
      (e) =>
        `${e.Properties.VpcEndpointType}:${JSON.stringify(e.Properties.ServiceName).match(/\.(dynamodb|sqs|kms)/)?.[1]}`,
    );
    expect(services.sort()).toEqual(['Gateway:dynamodb', 'Interface:kms', 'Interface:sqs']);
    twoAzs.template.hasResourceProperties('AWS::EC2::FlowLog', { TrafficType: 'REJECT' });
    // The webhook senders may manage their network interfaces (Lambda in a VPC), no other function.
    const eni = (key: FunctionKey) =>
      twoAzs.statements(key).some((s) => JSON.stringify(s.Action).includes('ec2:CreateNetworkInterface'));
    expect(KEYS.filter(eni).sort()).toEqual(['consumer', 'sendTestEvent']);
    // The interface endpoints take HTTPS from those two groups, nothing else.
    const ingress = Object.values(twoAzs.template.findResources('AWS::EC2::SecurityGroupIngress'));
    const sources = ingress.map((rule) => rule.Properties.SourceSecurityGroupId['Fn::GetAtt'][0]).sort();
    const groups = ['consumer', 'sendTestEvent'].map(
      (key) => twoAzs.fn(key as FunctionKey).Properties.VpcConfig.SecurityGroupIds[0]['Fn::GetAtt'][0],
    );
    expect(sources).toEqual(groups.sort());
    expect(ingress.every((rule) => rule.Properties.FromPort === 443 && rule.Properties.ToPort === 443)).toBe(
      true,
    );
  });

  it('makes no address that no NAT gateway uses when the environment offers fewer AZs than asked', () => {
    // An environment-agnostic stack has CDK's two placeholder AZs: three asked, two made.
    const agnostic = synth({ egress: { staticIps: true, azs: 3 } });
    const eips = Object.keys(agnostic.template.findResources('AWS::EC2::EIP')).sort();
    const nats = Object.values(agnostic.template.findResources('AWS::EC2::NatGateway'));
    expect(eips).toHaveLength(nats.length);
    expect(nats.map((nat) => nat.Properties.AllocationId['Fn::GetAtt'][0]).sort()).toEqual(eips);
    expect(agnostic.template.toJSON().Outputs.EgressIps.Value['Fn::Join'][1]).toHaveLength(nats.length);
  });

  it('takes 1 to 3 AZs, and reads herald:egress from the context as JSON', () => {
    expect(count(synth({ egress: { staticIps: true, azs: 1 } }), 'AWS::EC2::NatGateway')).toBe(1);
    expect(() => synth({ egress: { staticIps: true, azs: 4 } })).toThrow(
      /egress.azs must be a whole number from 1 to 3/,
    );
    const app = new App({ context: { 'herald:egress': '{"staticIps":true,"azs":3}' } });
    expect(stackPropsFromContext(app.node).egress).toEqual({ staticIps: true, azs: 3 });
  });
});
