/**
 * Typed errors thrown by domain, use-case and adapter code. They say what went wrong in business terms
 * (`kind`); how a kind is answered over HTTP is decided once, in `lambdas/http/problem/render.ts`. The library
 * and the CLI show their message.
 */

/** One rejected input parameter. */
export interface InvalidParam {
  readonly name: string;
  readonly reason: string;
}

/** What kind of failure an error is; each kind has one problem type in the HTTP layer. */
export type ErrorKind =
  | 'invalid'
  | 'unprocessable'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'busy';

/** Base class of every error whose message is written for the caller. */
export abstract class HeraldError extends Error {
  abstract readonly kind: ErrorKind;

  /** `message` is for the caller (always given); `options.cause`, where given, only for the logs. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * The class of a kind whose errors carry nothing but their message (and a cause for the logs): its `kind`,
 * and the `name` that logs, stack traces and the publisher's tallies show.
 */
function messageOnly<K extends ErrorKind>(kind: K, name: string) {
  return class extends HeraldError {
    readonly kind: K = kind;
    override readonly name: string = name;
  };
}

/**
 * Bad input: names the parameter and what is allowed; or several, each with its reason, when one check
 * finds them all at once (a payload's violations of its type's schema, each named by where it is; what
 * is wrong with an event type an operator registers).
 */
export class ValidationError extends HeraldError {
  readonly kind = 'invalid';
  override readonly name = 'ValidationError';
  readonly params: readonly [InvalidParam, ...InvalidParam[]];
  /** The caller's summary of the params, when it gave one instead of the joined `<name>: <reason>`. */
  private readonly summary: string | undefined;

  /** One parameter `name` and why it is refused; the message is `<name>: <reason>`. */
  constructor(name: string, reason: string);
  /** Several refused parameters; the message is `summary`, else each `<name>: <reason>` joined by `; `. */
  constructor(params: readonly [InvalidParam, ...InvalidParam[]], summary?: string);
  constructor(first: string | readonly [InvalidParam, ...InvalidParam[]], text?: string) {
    const params: readonly [InvalidParam, ...InvalidParam[]] =
      typeof first === 'string' ? [{ name: first, reason: text ?? '' }] : first;
    const summary = typeof first === 'string' ? undefined : text;
    super(summary ?? params.map((param) => `${param.name}: ${param.reason}`).join('; '));
    this.params = params;
    this.summary = summary;
  }

  /**
   * The same refusal with its parameters renamed: a field read inside a larger body (`payload` of a batch's
   * fourth entry is `events[3].payload`), or the library's name of a field as the API spells it.
   */
  renamed(rename: (name: string) => string): ValidationError {
    const [first, ...rest] = this.params;
    const renamed = (param: InvalidParam) => ({ name: rename(param.name), reason: param.reason });
    return new ValidationError([renamed(first), ...rest.map(renamed)], this.summary);
  }
}

/** Missing or unknown credentials. */
export class UnauthorizedError extends HeraldError {
  readonly kind = 'unauthorized';
  override readonly name = 'UnauthorizedError';

  constructor(message = 'A valid API key is required: send "Authorization: Bearer <api key>".') {
    super(message);
  }
}

/** Valid credentials that may not do this (e.g. a key that is not a portal session signing itself out). */
export class ForbiddenError extends messageOnly('forbidden', 'ForbiddenError') {}

/** Unknown resource, or one that belongs to another organization (indistinguishable on purpose). */
export class NotFoundError extends messageOnly('not-found', 'NotFoundError') {}

/** The request conflicts with what is stored (same event id with other content, wrong state). */
export class ConflictError extends messageOnly('conflict', 'ConflictError') {}

/**
 * Well-formed input that refers to something that does not exist (e.g. the `account` of a published
 * event): names the field, like {@link ValidationError}, but is not a syntax fault.
 */
export class UnprocessableError extends HeraldError {
  readonly kind = 'unprocessable';
  override readonly name = 'UnprocessableError';
  readonly params: readonly InvalidParam[];

  constructor(name: string, reason: string) {
    super(`${name}: ${reason}`);
    this.params = [{ name, reason }];
  }
}

/**
 * A request over a limit of its own kind (e.g. an account's test events a minute): refused before doing
 * anything, answered 429 with `Retry-After`, when the limit lets it through again.
 */
export class RateLimitedError extends HeraldError {
  readonly kind = 'rate-limited';
  override readonly name = 'RateLimitedError';

  /** @param retryAfterSeconds - whole seconds until the limit lets the request through, at least 1 */
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * A request that could not complete now but will if repeated (an account published to so fast that no
 * sequence could be taken, or an id whose concurrent publish is still under way): nothing was stored
 * by it. Answered 503 with `Retry-After`. Its `options.cause`: a failure that did not stop the busy answer.
 */
export class BusyError extends messageOnly('busy', 'BusyError') {}
