/**
 * The CLI's commands for an organization's Ed25519 signing keys (`v1a`) and its signature schemes.
 */
import { adminRoute, bodyOf, org, overlapBody } from './admin-route';
import type { Command } from './commands';
import { required, UsageError } from './flags';

/** `keys rotate` and `signatures set`, merged into the CLI's commands after the token's. */
export const SIGNING_COMMANDS: Readonly<Record<string, Command>> = {
  'keys rotate': {
    usage:
      'keys rotate --org ORG_ID [--overlap-hours H]   (Ed25519 v1a key; the old key also signs meanwhile)',
    route: 'rotateOrganizationKeys',
    run: (call, flags) =>
      bodyOf(call(...adminRoute('rotateOrganizationKeys', org(flags)), overlapBody(flags))),
  },
  'signatures set': {
    usage: 'signatures set --org ORG_ID --schemes v1,v1a   (v1: HMAC token, v1a: Ed25519 key)',
    route: 'setOrganizationSignatures',
    run: (call, flags) => {
      const schemes = required(flags, 'schemes').split(',');
      if (schemes.some((scheme) => scheme.trim() === ''))
        throw new UsageError('--schemes lists v1 and/or v1a.');
      return bodyOf(
        call(...adminRoute('setOrganizationSignatures', org(flags)), {
          signature_schemes: schemes.map((s) => s.trim()),
        }),
      );
    },
  },
};
