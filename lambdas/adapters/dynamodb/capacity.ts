/**
 * The read and write units DynamoDB reports per request (`ReturnConsumedCapacity: TOTAL`), handed to
 * whoever measures them: `npm run bench` counts what each request costs.
 */

/** Receives the capacity units each request consumed (for cost measurements). */
export type CapacityListener = (operation: string, units: number) => void;

/** Receives the capacity units one request consumed, if DynamoDB reported them. */
export type CapacityCounter = (operation: string, units: number | undefined) => void;

/** The counter that passes reported units on to `listener`, if there is one. */
export function capacityCounter(listener: CapacityListener | undefined): CapacityCounter {
  return (operation, units) => {
    if (listener && units !== undefined) listener(operation, units);
  };
}
