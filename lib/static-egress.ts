import { CfnOutput, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Construct } from 'constructs';
import { vpcInterface } from './cdk-interfaces';
import { heraldLogGroup, type LogSettings } from './log-group';

/**
 * Fixed source addresses for webhooks (stack prop `egress`, context key `herald:egress` as JSON): the
 * functions that send webhooks (the consumer, and the test event sender) run in private subnets whose
 * traffic leaves through one NAT gateway per AZ, each with its own Elastic IP, so receivers can allow-list
 * those addresses. Off by default.
 */
export interface EgressSettings {
  /** Send webhooks from Elastic IPs. */
  readonly staticIps: boolean;
  /** Availability zones (1 to 3), one NAT gateway and address each: 2 keeps delivering when one AZ fails. @default 2 */
  readonly azs?: number;
}

/** The network a function joins. */
export interface FunctionNetwork {
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroups: readonly ec2.ISecurityGroup[];
}

/** Checks the settings: `azs` a whole number from 1 to 3. */
export function egressAzs(settings: EgressSettings): number {
  const azs = settings.azs ?? 2;
  if (!Number.isInteger(azs) || azs < 1 || azs > 3) {
    throw new Error(`egress.azs must be a whole number from 1 to 3 (got ${settings.azs})`);
  }
  return azs;
}

/**
 * The VPC of the webhook senders: public subnets with a NAT gateway and an Elastic IP per AZ, private
 * subnets for the functions, a gateway endpoint for DynamoDB (free) and interface endpoints for SQS and
 * KMS, so their AWS calls do not go through (and pay for) the NAT gateways; only webhooks do. Flow logs of
 * rejected traffic (small, and what an investigation needs) go to an encrypted, retained log group.
 */
export class StaticEgress extends Construct {
  readonly vpc: ec2.IVpc;
  /** The Elastic IPs webhooks come from. */
  readonly addresses: readonly ec2.CfnEIP[];
  /** The consumer's: any destination out (receivers anywhere), nothing in. */
  readonly consumerGroup: ec2.SecurityGroup;
  /** The test event sender's: the consumer's rules in a group of its own, so flow logs tell them apart. */
  readonly testEventGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: LogSettings & { readonly settings: EgressSettings }) {
    super(scope, id);
    // As many addresses as the VPC will have AZs: the region (or, for an environment-agnostic stack,
    // CDK's two placeholders) may offer fewer than asked, and an address no NAT gateway uses must never
    // be listed in EgressIps. The VPC takes its AZs from the same list.
    const azs = Math.min(egressAzs(props.settings), Stack.of(this).availabilityZones.length);
    this.addresses = Array.from({ length: azs }, (_, i) => {
      const eip = new ec2.CfnEIP(this, `Address${i + 1}`, { domain: 'vpc' });
      // Receivers allow-list these: a replacement would break every allow-list at once.
      eip.applyRemovalPolicy(RemovalPolicy.RETAIN);
      return eip;
    });
    this.vpc = vpcInterface(
      new ec2.Vpc(this, 'Vpc', {
        maxAzs: azs,
        natGateways: azs,
        natGatewayProvider: ec2.NatProvider.gateway({
          eipAllocationIds: this.addresses.map((eip) => eip.attrAllocationId),
        }),
        subnetConfiguration: [
          { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
          { name: 'consumer', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
        ],
        restrictDefaultSecurityGroup: false,
        flowLogs: {
          rejected: {
            trafficType: ec2.FlowLogTrafficType.REJECT,
            destination: ec2.FlowLogDestination.toCloudWatchLogs(heraldLogGroup(this, 'FlowLogs', props)),
          },
        },
      }),
    );
    this.vpc.addGatewayEndpoint('DynamoDb', { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB });
    this.consumerGroup = new ec2.SecurityGroup(this, 'Consumer', {
      vpc: this.vpc,
      description: 'Herald consumer: webhooks out to any receiver, nothing in',
      allowAllOutbound: true,
    });
    this.testEventGroup = new ec2.SecurityGroup(this, 'TestEvents', {
      vpc: this.vpc,
      description: 'Herald test events: webhooks out to any receiver, nothing in',
      allowAllOutbound: true,
    });
    // The endpoints take HTTPS from the webhook senders only (not from the whole VPC range).
    const endpoints = new ec2.SecurityGroup(this, 'Endpoints', {
      vpc: this.vpc,
      description: 'Herald interface endpoints: HTTPS from the webhook senders only',
      allowAllOutbound: false,
    });
    endpoints.addIngressRule(this.consumerGroup, ec2.Port.tcp(443), 'HTTPS from the consumer');
    endpoints.addIngressRule(this.testEventGroup, ec2.Port.tcp(443), 'HTTPS from the test event sender');
    for (const [name, service] of [
      ['Sqs', ec2.InterfaceVpcEndpointAwsService.SQS],
      ['Kms', ec2.InterfaceVpcEndpointAwsService.KMS],
    ] as const) {
      this.vpc.addInterfaceEndpoint(name, {
        service,
        privateDnsEnabled: true,
        securityGroups: [endpoints],
        open: false,
      });
    }
    new CfnOutput(scope, 'EgressIps', {
      value: Fn.join(
        ',',
        this.addresses.map((eip) => eip.ref),
      ),
      description: 'The addresses webhooks come from: receivers allow-list them (one per AZ)',
    });
  }

  /**
   * Where a webhook sender runs: the private subnets (named `consumer` after the first function there;
   * renaming them would replace them), in its own security group.
   */
  networkOf(sender: 'consumer' | 'sendTestEvent'): FunctionNetwork {
    return {
      vpc: this.vpc,
      subnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
      securityGroups: [sender === 'consumer' ? this.consumerGroup : this.testEventGroup],
    };
  }
}
