/**
 * `ValidationError` with one refused parameter or several (a payload's violations), and renamed for the
 * body it was read in (a batch's entry, the API's spelling of a library field).
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';

describe('ValidationError', () => {
  it('names one parameter in its message, and renames both', () => {
    const error = new ValidationError('triggeredAt', 'expected a timestamp');
    expect(error.message).toBe('triggeredAt: expected a timestamp');
    const renamed = error.renamed((name) => `events[2].${name}`);
    expect(renamed.params).toEqual([{ name: 'events[2].triggeredAt', reason: 'expected a timestamp' }]);
    expect(renamed.message).toBe('events[2].triggeredAt: expected a timestamp');
  });

  it('carries several parameters with a summary, which renaming keeps', () => {
    const params = [
      { name: 'payload/amount', reason: 'is required' },
      { name: 'payload/currency', reason: 'must be 3 capitals' },
    ] as const;
    const error = new ValidationError(params, 'payload does not pass x version 1: 2 problems');
    expect(error.params).toEqual(params);
    expect(error.message).toBe('payload does not pass x version 1: 2 problems');
    const renamed = error.renamed((name) => `events[0].${name}`);
    expect(renamed.params.map((param) => param.name)).toEqual([
      'events[0].payload/amount',
      'events[0].payload/currency',
    ]);
    expect(renamed.message).toBe(error.message);
    // A summary of one violation stays a summary.
    const one = new ValidationError([params[0]], 'payload does not pass x version 1: 1 problem');
    expect(one.renamed((name) => `events[0].${name}`).message).toBe(one.message);
  });

  it('joins several parameters without a summary into its message, renamed with them', () => {
    const error = new ValidationError([
      { name: 'schema/type', reason: 'must be object' },
      { name: 'examples/0/payload', reason: 'does not pass the schema' },
    ]);
    expect(error.message).toBe('schema/type: must be object; examples/0/payload: does not pass the schema');
    expect(error.renamed((name) => `body.${name}`).message).toBe(
      'body.schema/type: must be object; body.examples/0/payload: does not pass the schema',
    );
  });
});
