import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/**
 * Makes a write whose condition may refuse it: true when it was written, false when its condition refused it.
 * A refusal is an answer (someone else got there first, or the item is not in the state the write expects),
 * so it is not thrown; every other failure is.
 */
export async function conditionally(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
