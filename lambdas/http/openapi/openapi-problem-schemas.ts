/**
 * The component schemas of the RFC 9457 problem answers (rendered by `problem.ts`); the responses that
 * use them are in `openapi-paths.ts`.
 */

import { PROBLEM_TYPE_BASE } from '#http/problem/problem-types';
import { closed, int, type JsonSchema, schemaRef, text } from './openapi-schemas';

const regexpEscape = (literal: string): string => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The problem schemas, merged into `components.schemas`. */
export const PROBLEM_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  InvalidParam: closed({ name: text('The parameter.'), reason: text('What is wrong and what is allowed.') }),
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details; extension members may be added.',
    required: ['type', 'title', 'status', 'detail', 'instance'],
    properties: {
      type: text('`https://herald.dev/problems/<slug>`.', {
        format: 'uri',
        pattern: `^${regexpEscape(PROBLEM_TYPE_BASE)}[a-z0-9-]+$`,
      }),
      title: text('Summary of the problem type; the same for every occurrence.'),
      status: int('The HTTP status.', 400, { maximum: 599 }),
      detail: text('What went wrong in this request; 5xx answers never reveal the cause.'),
      instance: text('The request id: quote it when asking for support.'),
      invalid_params: { type: 'array', minItems: 1, items: schemaRef('InvalidParam') },
    },
  },
  ValidationProblem: {
    type: 'object',
    allOf: [schemaRef('Problem')],
    required: ['invalid_params'],
    properties: { invalid_params: { type: 'array', minItems: 1 } },
  },
};
