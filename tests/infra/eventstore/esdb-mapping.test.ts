import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { START, StreamNotFoundError, WrongExpectedVersionError, type ResolvedEvent } from '@eventstore/db-client';
import {
  bigintToNumber,
  fromEsdbMetadata,
  isStreamNotFound,
  isSystemName,
  positionOf,
  streamOfLink,
  toAppendError,
  toEsdbEvent,
  toEsdbExpectedRevision,
  toEsdbMetadata,
  toEventData,
  toReadPosition,
  toRecordedEvent,
} from '../../../infra/eventstore/esdb-mapping.ts';
import { WrongExpectedVersion, type EventMetadata } from '../../../infra/eventstore/port.ts';

const metadata: EventMetadata = {
  workspace_id: 'ws_1',
  actor: 'key_1',
  correlation_id: 'cor-1',
  causation_id: 'cause-1',
  occurred_at: '2024-05-01T10:00:00.000Z',
  schema_version: 2,
};

const created = new Date('2024-05-01T10:00:01.000Z');
const EVENT_ID = '6f1c2a34-8d2e-4b7a-9c1d-0e2f3a4b5c6d';

/** A client event as `readAll` delivers it (JSON, with a position). */
function resolvedJson(overrides: { streamId?: string; type?: string; revision?: bigint; commit?: bigint; data?: unknown; metadata?: unknown } = {}): ResolvedEvent {
  const commit = overrides.commit ?? 1234n;
  return {
    event: {
      streamId: overrides.streamId ?? 'campaign-cmp_1',
      id: EVENT_ID,
      isJson: true,
      revision: overrides.revision ?? 3n,
      type: overrides.type ?? 'CampaignCreated',
      created,
      data: (overrides.data ?? { name: 'Spring' }) as Record<string, unknown>,
      metadata: ('metadata' in overrides ? overrides.metadata : toEsdbMetadata(metadata)) as Record<string, unknown>,
      position: { commit, prepare: commit },
    },
    commitPosition: commit,
  };
}

/** A `$streams` link as read without resolving links: data is `<n>@<stream>` in bytes. */
function link(target: string): ResolvedEvent {
  return {
    event: {
      streamId: '$streams',
      id: EVENT_ID,
      isJson: false,
      revision: 0n,
      type: '$>',
      created,
      data: new Uint8Array(Buffer.from(`0@${target}`, 'utf8')),
      metadata: undefined,
    },
  };
}

test('expected revisions map to the client constants and numbers to bigint', () => {
  assert.is(toEsdbExpectedRevision('no_stream'), 'no_stream');
  assert.is(toEsdbExpectedRevision('any'), 'any');
  assert.is(toEsdbExpectedRevision('stream_exists'), 'stream_exists');
  assert.is(toEsdbExpectedRevision(0), 0n);
  assert.is(toEsdbExpectedRevision(41), 41n);
  assert.throws(() => toEsdbExpectedRevision(-1), /invalid expected revision/);
  assert.throws(() => toEsdbExpectedRevision(1.5), /invalid expected revision/);
});

test('position 0 reads from the start; any other is a commit/prepare pair', () => {
  assert.is(toReadPosition(0), START);
  assert.equal(toReadPosition(5120), { commit: 5120n, prepare: 5120n });
  assert.throws(() => toReadPosition(-1), RangeError);
  assert.throws(() => toReadPosition(Number.MAX_SAFE_INTEGER + 2), RangeError);
});

test('bigints convert exactly up to 2^53 and refuse beyond', () => {
  assert.is(bigintToNumber(0n, 'x'), 0);
  assert.is(bigintToNumber(BigInt(Number.MAX_SAFE_INTEGER), 'x'), Number.MAX_SAFE_INTEGER);
  assert.throws(() => bigintToNumber(BigInt(Number.MAX_SAFE_INTEGER) + 1n, 'commit position'), /commit position .* beyond 2\^53/);
});

test('a resolved event maps to our recorded event with metadata restored', () => {
  const recorded = toRecordedEvent(resolvedJson());
  assert.equal(recorded, {
    id: EVENT_ID,
    stream: 'campaign-cmp_1',
    revision: 3,
    position: 1234,
    type: 'CampaignCreated',
    data: { name: 'Spring' },
    metadata,
  });
  // The ESDB-only keys do not leak into our metadata.
  assert.not.ok(recorded && '$correlationId' in recorded.metadata);
});

test('system streams, system event types and unresolved links are not ours', () => {
  assert.is(toRecordedEvent(resolvedJson({ streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' })), null);
  assert.is(toRecordedEvent(resolvedJson({ streamId: '$$campaign-cmp_1', type: 'Whatever' })), null);
  assert.is(toRecordedEvent(resolvedJson({ type: '$metadata' })), null);
  assert.is(toRecordedEvent(link('campaign-cmp_1')), null);
  assert.is(toRecordedEvent({ commitPosition: 10n }), null);
  assert.ok(isSystemName('$all'));
  assert.not.ok(isSystemName('call-1$'));
});

test('a stream prefix confines and is stripped', () => {
  assert.is(toRecordedEvent(resolvedJson({ streamId: 'other-campaign-cmp_1' }), 't1-'), null);
  assert.is(toRecordedEvent(resolvedJson({ streamId: 't1-campaign-cmp_1' }), 't1-')?.stream, 'campaign-cmp_1');
});

test('position prefers the event position, falls back to commitPosition, 0 when unknown', () => {
  assert.is(positionOf(resolvedJson({ commit: 99n })), 99);
  assert.is(positionOf({ commitPosition: 77n }), 77);
  const withoutPosition = resolvedJson();
  delete withoutPosition.event!.position;
  delete withoutPosition.commitPosition;
  assert.is(positionOf(withoutPosition), 0);
  // Servers before 22.6 send the all-ones u64 on stream reads.
  assert.is(positionOf({ commitPosition: (1n << 64n) - 1n }), 0);
  assert.is(positionOf({ commitPosition: -1n }), 0);
  assert.throws(() => positionOf({ commitPosition: 1n << 60n }), RangeError);
});

test('revision beyond 2^53 is refused rather than rounded', () => {
  assert.throws(() => toRecordedEvent(resolvedJson({ revision: 1n << 60n })), /revision/);
});

test('metadata to ESDB carries $correlationId and $causationId', () => {
  assert.equal(toEsdbMetadata(metadata), { ...metadata, $correlationId: 'cor-1', $causationId: 'cause-1' });
  const first = toEsdbMetadata({ ...metadata, causation_id: null });
  assert.is(first.$correlationId, 'cor-1');
  assert.not.ok('$causationId' in first);
  assert.is(first.causation_id, null);
});

test('metadata from events written by other tools gets neutral values', () => {
  assert.equal(fromEsdbMetadata(undefined, 'evt-1', created), {
    workspace_id: null,
    actor: 'unknown',
    correlation_id: 'evt-1',
    causation_id: null,
    occurred_at: created.toISOString(),
    schema_version: 1,
  });
  const fromEsdbKeys = fromEsdbMetadata({ $correlationId: 'c', $causationId: 'k' }, 'evt-1', created);
  assert.is(fromEsdbKeys.correlation_id, 'c');
  assert.is(fromEsdbKeys.causation_id, 'k');
  assert.is(fromEsdbMetadata(new Uint8Array([1, 2]), 'evt-1', created).actor, 'unknown');
  assert.is(fromEsdbMetadata(['x'], 'evt-1', created).correlation_id, 'evt-1');
});

test('event data: objects as they are, other JSON wrapped, binary as base64', () => {
  assert.equal(toEventData(true, { a: 1 }), { a: 1 });
  assert.equal(toEventData(true, [1, 2]), { value: [1, 2] });
  assert.equal(toEventData(true, 'text'), { value: 'text' });
  assert.equal(toEventData(true, null), { value: null });
  assert.equal(toEventData(false, new Uint8Array([1, 2, 3])), { binary_base64: 'AQID' });
});

test('an event to append keeps our id, type, data and metadata as JSON', () => {
  const esdbEvent = toEsdbEvent({ id: EVENT_ID, type: 'CallPlaced', data: { to: '+15550100' }, metadata });
  assert.equal(esdbEvent, {
    id: EVENT_ID,
    contentType: 'application/json',
    type: 'CallPlaced',
    data: { to: '+15550100' },
    metadata: toEsdbMetadata(metadata),
  });
  const generated = toEsdbEvent({ type: 'CallPlaced', data: {}, metadata });
  assert.match(generated.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('the client WrongExpectedVersionError becomes ours with stream, expected and actual', () => {
  const existing = new WrongExpectedVersionError(undefined, { streamName: 't1-call-1', expected: 'no_stream', current: 4n });
  const mapped = toAppendError(existing, 'call-1', 'no_stream');
  assert.instance(mapped, WrongExpectedVersion);
  const error = mapped as WrongExpectedVersion;
  assert.is(error.code, 'wrong_expected_version');
  assert.is(error.stream, 'call-1');
  assert.is(error.expected, 'no_stream');
  assert.is(error.actual, 4);

  const missing = new WrongExpectedVersionError(undefined, { streamName: 'call-2', expected: 3n, current: 'no_stream' });
  const mappedMissing = toAppendError(missing, 'call-2', 3) as WrongExpectedVersion;
  assert.is(mappedMissing.expected, 3);
  assert.is(mappedMissing.actual, 'no_stream');

  // Older servers report a missing stream as revision -1.
  const minusOne = new WrongExpectedVersionError(undefined, { streamName: 'call-3', expected: 'stream_exists', current: -1n });
  assert.is((toAppendError(minusOne, 'call-3', 'stream_exists') as WrongExpectedVersion).actual, 'no_stream');
});

test('other errors pass through unchanged', () => {
  const other = new Error('unavailable');
  assert.is(toAppendError(other, 'call-1', 'any'), other);
  assert.is(toAppendError('weird', 'call-1', 'any'), 'weird');
});

test('stream not found is recognised by the client error type', () => {
  assert.ok(isStreamNotFound(new StreamNotFoundError(undefined, 'campaign-x')));
  assert.not.ok(isStreamNotFound(new Error('campaign-x not found')));
  assert.not.ok(isStreamNotFound(undefined));
});

test('$streams links name their stream; other events do not', () => {
  assert.is(streamOfLink(link('campaign-cmp_1')), 'campaign-cmp_1');
  assert.is(streamOfLink(link('odd@name')), 'odd@name');
  const resolvedLink: ResolvedEvent = { event: resolvedJson().event, link: link('call-7').event as ResolvedEvent['link'] };
  assert.is(streamOfLink(resolvedLink), 'call-7');
  assert.is(streamOfLink(resolvedJson()), null);
});

test.run();
