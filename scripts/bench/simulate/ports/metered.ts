/**
 * Metered ports: wraps an in-memory port implementation so that each declared method charges the DynamoDB
 * model for what the real adapter's request would cost, and suffers its latency, throttling and SDK
 * retries before the in-memory operation runs and its result comes back. Declarations are per method:
 *
 * ```ts
 * const events = meter<DeliveryLedger>(new InMemoryEventStore(), client, 'events', {
 *   getEvent: (id, options) => ({ kind: 'read', key: `EVENT#${id}`, consistent: options?.consistent }),
 *   recordAttempt: (id) => ({ kind: 'write', key: `EVENT#${id}`, sizeKb: 2 }),
 * });
 * ```
 *
 * A method without a declaration passes through unmetered (and is counted in `meter.unmetered`, so a
 * wiring can assert it forgot none).
 */
import type { Charge } from '../aws/dynamodb/capacity';
import type { DynamoClient } from '../aws/dynamodb/client';

/** Charges of one call: a single charge or several (one request, admitted whole). */
export type Charges = Charge | readonly Charge[];

/**
 * How a method is charged: a function of its arguments (charged before it runs), or with `after`, extra
 * capacity known only from its result (e.g. the items a query returned), drawn but never throttled.
 */
export type ChargeRule<A extends unknown[], R> =
  | ((...args: A) => Charges)
  | {
      readonly before: (...args: A) => Charges;
      readonly after?: (result: R, ...args: A) => Charges;
    };

/** The declarations for the async methods of `T`. */
export type MeterRules<T> = {
  readonly [K in keyof T]?: T[K] extends (...args: infer A) => Promise<infer R> ? ChargeRule<A, R> : never;
};

const list = (charges: Charges): readonly Charge[] =>
  Array.isArray(charges) ? (charges as readonly Charge[]) : [charges as Charge];

/**
 * `target` with its declared methods metered through `client`. Name the port as the type argument
 * (`meter<DeliveryLedger>(…)`), so that the declarations see the port's signatures, not the fake's.
 *
 * @param name - prefix of the operation names in the meter (`name.method`)
 */
export function meter<T extends object>(
  target: T,
  client: DynamoClient,
  name: string,
  rules: MeterRules<T>,
): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      const cached = wrapped.get(property);
      if (cached !== undefined) return cached;
      const method = value as (...args: unknown[]) => unknown;
      const rule = rules[property as keyof T] as ChargeRule<unknown[], unknown> | undefined;
      const operation = `${name}.${String(property)}`;
      const wrapper =
        rule === undefined
          ? (...args: unknown[]) => {
              client.meter.unmetered.set(operation, (client.meter.unmetered.get(operation) ?? 0) + 1);
              return method.apply(object, args);
            }
          : async (...args: unknown[]) => {
              const before = typeof rule === 'function' ? rule : rule.before;
              const after = typeof rule === 'function' ? undefined : rule.after;
              const result = await client.call(operation, list(before(...args)), () =>
                method.apply(object, args),
              );
              if (after) client.chargeAfter(operation, list(after(result, ...args)));
              return result;
            };
      wrapped.set(property, wrapper);
      return wrapper;
    },
  });
}
