/** A notice made from its key: its id is the key's, and the key's fields are the ones stored. */
import { describe, expect, it } from 'vitest';
import { makeNotice, noticeId } from '#domain/notices/notice';

describe('makeNotice', () => {
  it('derives the id from the key it stores', () => {
    const key = {
      kind: 'endpoint_disabled' as const,
      orgId: 'org-1',
      endpointId: 'ep_0123456789ab',
      epoch: 'E',
    };
    const notice = makeNotice(key, { account: 'DE89370400440532013000', at: 'A', consecutiveFailures: 0 });
    expect(notice).toEqual({
      ...key,
      id: noticeId(key),
      account: 'DE89370400440532013000',
      at: 'A',
      consecutiveFailures: 0,
    });
    expect(makeNotice({ ...key, epoch: 'F' }, notice).id).toBe(noticeId({ ...key, epoch: 'F' }));
  });
});
