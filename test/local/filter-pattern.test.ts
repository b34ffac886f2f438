import { describe, expect, it } from 'vitest';
import {
  EXPIRY_FILTER_PATTERN,
  NOTICE_FILTER_PATTERN,
  STREAM_FILTER_PATTERN,
  STREAM_FILTER_PATTERNS,
} from '#config/storage';
import { type FilterPattern, matchesFilterPattern } from '../../scripts/local/filter-pattern';

/** A stream record in the JSON shape Lambda filters on. */
function streamRecord(eventName: string, newImage: Record<string, unknown> | undefined): unknown {
  return {
    eventID: 'e1',
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: { pk: { S: 'LOG#o1#DE1' }, sk: { S: '000000000001' } },
      NewImage: newImage,
      SequenceNumber: '1',
    },
  };
}

const pendingEvent = {
  pk: { S: 'LOG#o1#DE1' },
  sk: { S: '000000000001' },
  webhook_status: { S: 'pending' },
  webhook_retries: { N: '0' },
};

describe('STREAM_FILTER_PATTERN', () => {
  it('lets an INSERT of a pending event through', () => {
    expect(matchesFilterPattern(STREAM_FILTER_PATTERN, streamRecord('INSERT', pendingEvent))).toBe(true);
  });

  it('drops updates and removals of events', () => {
    expect(matchesFilterPattern(STREAM_FILTER_PATTERN, streamRecord('MODIFY', pendingEvent))).toBe(false);
    expect(matchesFilterPattern(STREAM_FILTER_PATTERN, streamRecord('REMOVE', undefined))).toBe(false);
  });

  it('drops inserts of other items and of events that are not pending', () => {
    const org = { pk: { S: 'ORG#1' }, sk: { S: 'ORG' }, name: { S: 'Acme' } };
    // An id's claim is no event, and an old-layout event is never inserted any more.
    const claim = { pk: { S: 'EVENT#1' }, sk: { S: 'EVENT' }, webhook_status: { S: 'pending' } };
    expect(matchesFilterPattern(STREAM_FILTER_PATTERN, streamRecord('INSERT', claim))).toBe(false);
    const delivered = { ...pendingEvent, webhook_status: { S: 'delivered' } };
    expect(matchesFilterPattern(STREAM_FILTER_PATTERN, streamRecord('INSERT', org))).toBe(false);
    expect(matchesFilterPattern(STREAM_FILTER_PATTERN, streamRecord('INSERT', delivered))).toBe(false);
  });

  it('does not match a value of another attribute type', () => {
    const numericPk = { ...pendingEvent, pk: { N: '1' } };
    expect(matchesFilterPattern(STREAM_FILTER_PATTERN, streamRecord('INSERT', numericPk))).toBe(false);
  });
});

describe('EXPIRY_FILTER_PATTERN', () => {
  const removal = (principalId: string, pk: string) => ({
    eventName: 'REMOVE',
    userIdentity: { type: 'Service', principalId },
    dynamodb: { Keys: { pk: { S: pk }, sk: { S: '000000000001' } }, SequenceNumber: '1' },
  });
  it("lets the TTL's deletions of log items through, and nothing else", () => {
    expect(matchesFilterPattern(EXPIRY_FILTER_PATTERN, removal('dynamodb.amazonaws.com', 'LOG#o1#DE1'))).toBe(
      true,
    );
    expect(matchesFilterPattern(EXPIRY_FILTER_PATTERN, removal('dynamodb.amazonaws.com', 'EVENT#1'))).toBe(
      false,
    );
    // An erasure's deletions carry no service identity.
    const { userIdentity: _none, ...erased } = removal('x', 'LOG#o1#DE1');
    expect(matchesFilterPattern(EXPIRY_FILTER_PATTERN, erased)).toBe(false);
    expect(matchesFilterPattern(EXPIRY_FILTER_PATTERN, streamRecord('INSERT', pendingEvent))).toBe(false);
  });
});

describe('NOTICE_FILTER_PATTERN', () => {
  const notice = {
    pk: { S: 'OPS#o1' },
    sk: { S: '2026-11-20T10:00:00.000Z#1000#ntc_0123' },
    id: { S: 'ntc_0123' },
    kind: { S: 'endpoint_failing' },
  };
  it("lets a notice's creation through, never its delivery's updates", () => {
    expect(matchesFilterPattern(NOTICE_FILTER_PATTERN, streamRecord('INSERT', notice))).toBe(true);
    const attempted = { ...notice, webhook_status: { S: 'pending' }, webhook_retries: { N: '1' } };
    expect(matchesFilterPattern(NOTICE_FILTER_PATTERN, streamRecord('MODIFY', attempted))).toBe(false);
  });

  it("drops the operational webhook's own health item and every other kind", () => {
    const health = { pk: { S: 'OPS#o1#HEALTH' }, sk: { S: 'HEALTH' }, org_id: { S: 'o1' } };
    expect(matchesFilterPattern(NOTICE_FILTER_PATTERN, streamRecord('INSERT', health))).toBe(false);
    expect(matchesFilterPattern(NOTICE_FILTER_PATTERN, streamRecord('INSERT', pendingEvent))).toBe(false);
    expect(matchesFilterPattern(STREAM_FILTER_PATTERN, streamRecord('INSERT', notice))).toBe(false);
  });

  it("lets no filter pass a notice's removal by the table's TTL", () => {
    const expired = {
      eventName: 'REMOVE',
      userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' },
      dynamodb: { Keys: { pk: notice.pk, sk: notice.sk }, OldImage: notice, SequenceNumber: '1' },
    };
    expect(STREAM_FILTER_PATTERNS.filter((pattern) => matchesFilterPattern(pattern, expired))).toEqual([]);
  });
});

describe('matchesFilterPattern', () => {
  it('treats a leaf array as alternatives', () => {
    const pattern: FilterPattern = { eventName: ['INSERT', 'MODIFY'] };
    expect(matchesFilterPattern(pattern, { eventName: 'MODIFY' })).toBe(true);
    expect(matchesFilterPattern(pattern, { eventName: 'REMOVE' })).toBe(false);
  });

  it('matches an array value when any element matches', () => {
    expect(matchesFilterPattern({ tags: ['b'] }, { tags: ['a', 'b'] })).toBe(true);
    expect(matchesFilterPattern({ tags: ['c'] }, { tags: ['a', 'b'] })).toBe(false);
  });

  it('compares numbers by value and never equates a number with its string', () => {
    expect(matchesFilterPattern({ n: [1] }, { n: 1.0 })).toBe(true);
    expect(matchesFilterPattern({ n: [1] }, { n: '1' })).toBe(false);
  });

  it('matches null only against an explicit null', () => {
    expect(matchesFilterPattern({ v: [null] }, { v: null })).toBe(true);
    expect(matchesFilterPattern({ v: [null] }, {})).toBe(false);
  });

  it('supports prefix', () => {
    const pattern: FilterPattern = { dynamodb: { Keys: { pk: { S: [{ prefix: 'EVENT#' }] } } } };
    expect(matchesFilterPattern(pattern, { dynamodb: { Keys: { pk: { S: 'EVENT#9' } } } })).toBe(true);
    expect(matchesFilterPattern(pattern, { dynamodb: { Keys: { pk: { S: 'ORG#9' } } } })).toBe(false);
    expect(matchesFilterPattern(pattern, { dynamodb: { Keys: {} } })).toBe(false);
  });

  it('supports exists for leaf values', () => {
    const present: FilterPattern = { d: { lease_until: [{ exists: true }] } };
    const absent: FilterPattern = { d: { lease_until: [{ exists: false }] } };
    expect(matchesFilterPattern(present, { d: { lease_until: 5 } })).toBe(true);
    expect(matchesFilterPattern(present, { d: {} })).toBe(false);
    expect(matchesFilterPattern(present, { d: { lease_until: { N: '5' } } })).toBe(false);
    expect(matchesFilterPattern(absent, { d: {} })).toBe(true);
    expect(matchesFilterPattern(absent, {})).toBe(true);
    expect(matchesFilterPattern(absent, { d: { lease_until: 5 } })).toBe(false);
  });

  it('fails a nested pattern when the object is missing', () => {
    expect(matchesFilterPattern({ dynamodb: { NewImage: { sk: { S: ['EVENT'] } } } }, { dynamodb: {} })).toBe(
      false,
    );
  });

  it('rejects operators it does not implement instead of guessing', () => {
    const pattern = { n: [{ numeric: ['>', 1] }] } as unknown as FilterPattern;
    expect(() => matchesFilterPattern(pattern, { n: 2 })).toThrow(/Unsupported filter operator/);
  });
});
