import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetrics, logger, maskIbanStrings } from '#adapters/observability';
import { maskIban, maskIbans } from '#domain/iban';
import type { EventRecord } from '#domain/model';
import { deliveryObserver } from '#handlers/deliver-webhooks-telemetry';

afterEach(() => {
  vi.restoreAllMocks();
});

/** What the process writes to stdout while `run` runs (logs and EMF metrics both go there). */
function stdoutOf(run: () => void): string {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  run();
  return lines.join('');
}

describe('IBANs in logs', () => {
  it('keeps the country, check digits and last four characters', () => {
    expect(maskIban('DE89370400440532013000')).toBe('DE89…3000');
  });

  it('masks every valid IBAN inside a text and leaves other runs alone', () => {
    expect(maskIbans('Account DE89370400440532013000 belongs to another organization.')).toBe(
      'Account DE89…3000 belongs to another organization.',
    );
    expect(maskIbans('/accounts/GB82WEST12345698765432/events,NO9386011117947')).toBe(
      '/accounts/GB82…5432/events,NO93…7947',
    );
    // Wrong check digits, an id and a hash are not IBANs.
    const untouched = 'DE00370400440532013000 0193a1b2-c3d4 ABCD1234567890123456';
    expect(maskIbans(untouched)).toBe(untouched);
    expect(maskIbanStrings('n', 42)).toBe(42);
  });

  it('masks an IBAN however it is written: any case, with blanks, beside words and other IBANs', () => {
    expect(maskIbans('/accounts/de89370400440532013000/test-events')).toBe('/accounts/DE89…3000/test-events');
    expect(maskIbans('account DE89 3704 0044 0532 0130 00 to x')).toBe('account DE89…3000 to x');
    expect(maskIbans('de89 3704 0044 0532 0130 00')).toBe('DE89…3000');
    expect(maskIbans('DE89370400440532013000 GB82 WEST 1234 5698 7654 32 ok')).toBe('DE89…3000 GB82…5432 ok');
    // A blank-joined run that is no IBAN, and one with wrong check digits, are left alone.
    const untouched = 'de00 3704 0044 0532 0130 00 and ab12 cdef ghij klmn';
    expect(maskIbans(untouched)).toBe(untouched);
  });

  it('the functions’ logger masks IBANs in messages, attributes and errors', () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    logger.info('Webhook attempt for DE89370400440532013000', {
      account: 'DE89370400440532013000',
      nested: { iban: 'GB82WEST12345698765432' },
      error: new Error('Account DE89370400440532013000 belongs to another organization.'),
    });
    const written = lines.join('');
    expect(written).toContain('DE89…3000');
    expect(written).toContain('GB82…5432');
    expect(written).not.toContain('DE89370400440532013000');
    expect(written).not.toContain('GB82WEST12345698765432');
  });

  it('every function, the control-plane ones included, logs through that logger only', () => {
    const dir = join(__dirname, '../../lambdas/handlers');
    for (const file of readdirSync(dir)) {
      const source = readFileSync(join(dir, file), 'utf8');
      expect(source, file).not.toMatch(/console\.|new Logger\(/);
      if (file === 'api-handler.ts') continue;
      if (!/export const handler\b/.test(source)) {
        // A handler's wiring module (e.g. the consumer's telemetry) is handed the handler's logger: it
        // may name the type only.
        expect(source, file).not.toMatch(
          /import \{[^}]*\bLogger\b[^}]*\} from '@aws-lambda-powertools\/logger'/,
        );
        continue;
      }
      // Each handler either builds on the shared API stack or wires the masked logger itself.
      expect(source, file).toMatch(/from '(\.\/api-handler|#adapters\/observability)'/);
    }
  });

  it('endpoint-change metrics name the organization and the endpoint id, never the IBAN', () => {
    const iban = 'DE89370400440532013000';
    const event = { id: 'e1', orgId: 'org-1', account: iban, webhookRetries: 5 } as EventRecord;
    const attempt = { deliveredAt: '', responseStatus: 410, responseBody: '', responseTimeMs: 12 };
    const metrics = createMetrics();
    const written = stdoutOf(() => {
      deliveryObserver(logger, metrics).observe('e1', {
        kind: 'exhausted',
        event,
        attempt,
        endpoint: {
          health: { state: 'disabled', consecutiveFailures: 0, reason: 'receiver answered 410 Gone' },
          change: 'disabled',
          endpointId: 'ep_0123456789ab',
        },
      });
      metrics.publishStoredMetrics();
    });
    expect(written).not.toContain(iban);
    const documents = written
      .split('\n')
      .filter((line) => line.includes('CloudWatchMetrics'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const perEndpoint = documents.find((doc) => doc.endpoint !== undefined);
    expect(perEndpoint).toMatchObject({
      endpoint: 'ep_0123456789ab',
      organization: 'org-1',
      EndpointDisabled: 1,
    });
    expect(JSON.stringify(perEndpoint)).toContain('["service","organization","endpoint"]');
  });
});
