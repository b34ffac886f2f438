/**
 * Where a local event's time goes: each fast event is timed when its publish is sent and answered, when
 * the forwarder is first invoked with its stream record, when a consumer invocation first receives its
 * message, and when its receiver first gets it. Phases: publish (sent → answered), stream (answered →
 * forwarder), queue (forwarder → consumer: the SQS send, the wait for a free poller and its receive),
 * delivery (consumer → receiver: the handler's reads and writes before the POST, and the POST).
 */
import type { FunctionKey } from '#config/functions';
import { quantile } from '../report';
import type { AgreementFigures } from './scenarios';

/** The scenario's event ids (`scenarioEventId`), wherever they appear in an invocation's event. */
const EVENT_ID = /00000000-0000-4000-8000-[0-9a-f]{12}/g;

/** Per-event timestamps (`performance.now()`) of the events counted (the fast accounts'). */
export function eventTimings() {
  const sentAt = new Map<string, number>();
  const storedAt = new Map<string, number>();
  const forwardedAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  const arrivedAt = new Map<string, number>();
  const first = (map: Map<string, number>, id: string) => {
    if (!map.has(id)) map.set(id, performance.now());
  };
  return {
    sent: (id: string) => sentAt.set(id, performance.now()),
    stored: (id: string) => first(storedAt, id),
    forwarded: (id: string) => first(forwardedAt, id),
    received: (id: string) => first(receivedAt, id),
    arrived: (id: string) => first(arrivedAt, id),
    /** Whether every counted event reached its receiver. */
    allArrived: () => [...sentAt.keys()].every((id) => arrivedAt.has(id)),
    /** The compared figures (from `started`, the first publish) and each phase's median. */
    summary(started: number): {
      figures: AgreementFigures;
      phases: { publish: number; stream: number; queue: number; delivery: number };
    } {
      const ids = [...sentAt.keys()];
      const between = (from: Map<string, number>, to: Map<string, number>) =>
        quantile(
          ids
            .filter((id) => from.has(id) && to.has(id))
            .map((id) => (to.get(id) as number) - (from.get(id) as number)),
          0.5,
        );
      const latencies = ids.map((id) => (arrivedAt.get(id) ?? Number.NaN) - (sentAt.get(id) as number));
      const last = Math.max(...ids.map((id) => arrivedAt.get(id) ?? Number.NaN));
      return {
        figures: {
          drainMs: last - started,
          fastP50Ms: quantile(latencies, 0.5),
          fastP90Ms: quantile(latencies, 0.9),
          fastP99Ms: quantile(latencies, 0.99),
          delivered: ids.filter((id) => arrivedAt.has(id)).length,
        },
        phases: {
          publish: between(sentAt, storedAt),
          stream: between(storedAt, forwardedAt),
          queue: between(forwardedAt, receivedAt),
          delivery: between(receivedAt, arrivedAt),
        },
      };
    },
  };
}

/** The local runtime's `onInvoke` hook feeding `timings`: forwarder and consumer invocations. */
export function invocationWatch(
  timings: ReturnType<typeof eventTimings>,
): (key: FunctionKey, event: unknown) => void {
  return (key, event) => {
    if (key !== 'forwarder' && key !== 'consumer') return;
    const mark = key === 'forwarder' ? timings.forwarded : timings.received;
    for (const id of JSON.stringify(event).match(EVENT_ID) ?? []) mark(id);
  };
}
