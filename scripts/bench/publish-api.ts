/**
 * `POST /events` through the local runtime: SigV4 signing by the CLI's client, the emulated gateway's
 * signature check, the publish function's two reads and conditional put. Sequential calls, so the
 * numbers are per-request latency, not throughput.
 */
import { apiClient } from '#cli/api-client';
import type { LocalEndpoints } from '#local/emulators';
import { startLocalRuntime } from '#local/runtime';
import { SAMPLE_PAYLOAD } from './capacity';

/** Latency percentiles (ms) of signed publishes. */
export interface PublishApiResult {
  readonly events: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

/** Publishes `events` events one after another and times each call. */
export async function measurePublishApi(
  endpoints: LocalEndpoints,
  events: number,
): Promise<PublishApiResult> {
  const runtime = await startLocalRuntime({ endpoints, prefix: `bench-${Date.now().toString(36)}` });
  try {
    const call = apiClient({
      apiUrl: runtime.baseUrl,
      region: 'us-east-1',
      credentials: async () => runtime.credentials,
    });
    const org = (await call('POST', '/admin/organizations', { name: 'bench' })).body as { id: string };
    const iban = 'DE89370400440532013000';
    await call('PUT', `/admin/accounts/${iban}`, { org: org.id });
    const times: number[] = [];
    for (let i = 0; i < events; i++) {
      const start = performance.now();
      await call('POST', '/events', {
        account: iban,
        type: 'credit_transfer_status_change',
        payload: SAMPLE_PAYLOAD,
      });
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) =>
      Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0);
    return { events, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: at(1) };
  } finally {
    await runtime.stop();
  }
}
