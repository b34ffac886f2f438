/**
 * Typed errors thrown by domain and adapter code. The API maps them once, in the problem+json
 * middleware; the library and CLI show their message.
 */

/** One rejected input parameter of a 400 answer. */
export interface InvalidParam {
  readonly name: string;
  readonly reason: string;
}

/** Base class: an error whose HTTP rendering is known. */
export abstract class HeraldError extends Error {
  /** HTTP status of the problem. */
  abstract readonly status: number;
  /** Short problem slug, the last segment of the problem `type` URI. */
  abstract readonly slug: string;
  /** Short, human-readable summary of the problem type. */
  abstract readonly title: string;
  /** Extra response headers (e.g. `WWW-Authenticate`, `Allow`). */
  readonly headers: Readonly<Record<string, string>> = {};
}

/** Bad input: names the parameter and what is allowed. */
export class ValidationError extends HeraldError {
  readonly status = 400;
  readonly slug = 'invalid-parameter';
  readonly title = 'Invalid parameter';
  readonly params: readonly InvalidParam[];

  constructor(name: string, reason: string) {
    super(`${name}: ${reason}`);
    this.name = 'ValidationError';
    this.params = [{ name, reason }];
  }
}

/** Missing or unknown API key. */
export class UnauthorizedError extends HeraldError {
  readonly status = 401;
  readonly slug = 'unauthorized';
  readonly title = 'Unauthorized';
  override readonly headers = { 'WWW-Authenticate': 'Bearer' };

  constructor(message = 'A valid API key is required: send "Authorization: Bearer <api key>".') {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

/** Unknown resource, or one that belongs to another organization (indistinguishable on purpose). */
export class NotFoundError extends HeraldError {
  readonly status = 404;
  readonly slug = 'not-found';
  readonly title = 'Not found';

  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The request conflicts with what is stored (same event id with other content, wrong state). */
export class ConflictError extends HeraldError {
  readonly status = 409;
  readonly slug = 'conflict';
  readonly title = 'Conflict';

  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}
