/**
 * Herald as a library: publishing events from the gateway's own code, and the error types it throws.
 */
export {
  BusyError,
  ConflictError,
  HeraldError,
  type InvalidParam,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from '#domain/errors';
export type { PublishInput } from '#domain/event-input';
export type { WebhookStatus } from '#domain/model';
export {
  type BatchPublisher,
  type BatchPublishResult,
  createBatchPublisher,
  createPublisher,
  type PublishedEvent,
  type Publisher,
  type PublisherOptions,
  publishEvent,
  publishEvents,
} from './publisher';
